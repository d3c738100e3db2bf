package tree

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/protocol"
	"github.com/aepflow/aepflow/yamldoc"
	yaml "go.yaml.in/yaml/v3"
)

// Keys that only one kind of document carries, used to tell a lone file's
// kind from its contents.
var (
	protocolOnly  = []string{"evidence_kinds", "verifiers", "phases", "observables", "scales", "approval_floor", "artifact_kinds", "default_failure_policy"}
	principleOnly = []string{"applies_when", "applicability", "requires", "obligations", "evidence", "verification", "on_failure", "failure_policy"}
	profileOnly   = []string{"protocol", "workflow", "principles", "without_principles", "remove_principles", "completion", "facts"}
)

// DetectKind tells the kind of a lone document from its contents: `format`
// makes a step map, `initial` with `states` a workflow, `kind` without `id`
// a lifecycle, and keys only protocols, principles or profiles carry make
// one of those. Failing that, the nearest directory named after a tree row
// decides (`drivers/`, `workflows/`, …). It returns "" when neither tells.
func DetectKind(file string, root *yaml.Node) Kind {
	if k := kindFromContent(root); k != "" {
		return k
	}
	return kindFromPath(file)
}

func kindFromContent(root *yaml.Node) Kind {
	if root == nil || root.Kind != yaml.MappingNode {
		return ""
	}
	keys := map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		keys[root.Content[i].Value] = true
	}
	any := func(list []string) bool { return slices.ContainsFunc(list, func(k string) bool { return keys[k] }) }
	switch {
	case keys["format"]:
		return KindStepMap
	case keys["initial"] && keys["states"]:
		return KindWorkflow
	case keys["kind"] && !keys["id"]:
		return KindLifecycle
	case any(protocolOnly):
		return KindProtocol
	case any(principleOnly):
		return KindPrinciple
	case any(profileOnly):
		return KindProfile
	}
	return ""
}

func kindFromPath(file string) Kind {
	dirs := strings.Split(filepath.ToSlash(filepath.Dir(file)), "/")
	for i := len(dirs) - 1; i >= 0; i-- {
		for _, r := range Rows {
			if dirs[i] == r.Dir || (r.Kind == KindLifecycle && dirs[i] == "lifecycles") {
				return r.Kind
			}
		}
	}
	return ""
}

// ParseKind reads a kind as a user names it: the kind names, plus
// `driver-steps` and `stepmap` for step maps.
func ParseKind(s string) (Kind, bool) {
	switch s {
	case "driver-steps", "stepmap", "step-map", "step_map":
		return KindStepMap, true
	}
	k := Kind(s)
	return k, slices.Contains(Kinds, k)
}

// LoadDocument reads one document on its own, outside any tree: as kind
// when given, else as the kind DetectKind tells. It runs the document's own
// rules (a workflow's §7 rules, a step map's §8.3 rules, a principle's and
// a protocol's), on what decoded even when the document has shape errors,
// but nothing that needs other documents except a protocol that extends
// nothing. The Document is nil when the document has shape errors.
func LoadDocument(file string, data []byte, kind Kind) (*Document, diag.List) {
	doc, diags := yamldoc.Parse(file, data)
	if doc == nil || diags.HasErrors() {
		return nil, diags
	}
	if kind == "" {
		if m := protocol.Misplaced(doc.Root); m != "" {
			diags.Add(diag.Errorf(CodeMisplaced, "this file is a document of kind `%s`, which aepflow does not validate", m).At(file, yamldoc.PosOf(doc.Root)))
			return nil, diags
		}
		kind = DetectKind(file, doc.Root)
	}
	if kind == "" && (doc.Root == nil || doc.Root.Kind != yaml.MappingNode) {
		// Nothing to tell a kind from: what is wrong is that the file
		// holds no document (nothing, a list, a scalar, null), which
		// every kind refuses as its shape (wrong_type, "must be a
		// mapping, found a sequence").
		diags.Add(notADocument(file, data, doc.Root))
		return nil, diags
	}
	if kind == "" {
		diags.Add(diag.Errorf(CodeUnknownKind, "cannot tell which kind of document this is").At(file, yamldoc.PosOf(doc.Root)).
			WithHint("%s", UnknownKindHint))
		return nil, diags
	}
	d, sound, ds := decode(kind, doc)
	diags.Extend(ds)
	if d != nil && d.Protocol != nil && d.Protocol.Extends == nil && !d.Protocol.ExtendsUnreadable() {
		diags.Extend(d.Protocol.ValidateVerifiers(nil))
	}
	if !sound {
		return nil, diags // its own rules ran on what decoded; it is not usable
	}
	return d, diags
}

// UnknownKindHint is the hint of unknown_document_kind: how a lone file's
// kind is told (DetectKind). It names no command's flag: a command that
// lets its user name the kind (validate's --kind) adds that where it
// prints.
const UnknownKindHint = "a kind is told by keys only it carries (a workflow's `initial` and `states`, a step map's `format`, …) " +
	"or by the tree directory the file is in (`workflows/`, `drivers/`, …)"

// NameKindHint is what a command whose flag names a file's kind adds to
// UnknownKindHint (validate: NameKindHint("--kind")), after "; ": "or
// name it with FLAG (lifecycle, principle, …)".
func NameKindHint(flag string) string {
	names := make([]string, len(Kinds))
	for i, k := range Kinds {
		names[i] = string(k)
	}
	slices.Sort(names)
	return "or name it with " + flag + " (" + strings.Join(names, ", ") + ")"
}

// notADocument is the refusal of a file whose root is not a mapping and
// whose kind nothing tells: wrong_type, the shape error every kind gives
// it (documents.md §2.4), worded for the file: empty, comments only, an
// empty document (`---`), or what the root holds (a sequence, a string,
// null).
func notADocument(file string, data []byte, root *yaml.Node) diag.Diagnostic {
	const hint = "an AEP document is a mapping of keys; check that this is the file you meant"
	switch {
	case root == nil && len(bytes.TrimSpace(data)) == 0:
		return diag.Errorf(yamldoc.CodeWrongType, "the file is empty").InFile(file).WithHint(hint)
	case root == nil:
		return diag.Errorf(yamldoc.CodeWrongType, "the file holds no document, only comments").InFile(file).WithHint(hint)
	case root.Kind == yaml.ScalarNode && root.Tag == "!!null" && root.Value == "":
		// `---` and nothing after it: no value to point at.
		return diag.Errorf(yamldoc.CodeWrongType, "the file holds an empty document").InFile(file).WithHint(hint)
	}
	return diag.Errorf(yamldoc.CodeWrongType, "the file holds %s, not a document", yamldoc.ShapeOf(root)).
		At(file, yamldoc.PosOf(root)).WithHint(hint)
}
