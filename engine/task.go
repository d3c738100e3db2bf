package engine

import (
	"slices"
	"strings"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/ident"
	"github.com/aepflow/aepflow/protocol"
	"github.com/aepflow/aepflow/yamldoc"
	yaml "go.yaml.in/yaml/v3"
)

// NamedTaskKinds are the task kinds the specification names; any other
// kebab word is accepted too.
var NamedTaskKinds = []string{"feature", "bugfix", "refactor", "investigation", "incident", "release", "migration", "dependency-upgrade", "security-response", "infrastructure-change", "documentation"}

// Task is a task document (engine.md §6.2). Profile is the reference as
// written; DerivedFrom is the task's declared work.
type Task struct {
	ID          string
	Kind        string
	Objective   string
	Subject     string
	Protocol    ident.Ref
	Profile     string
	DerivedFrom []string
	Facts       []Fact
	Add, Remove []string
	File        string
	// Pos is the position of the document's root; ProtocolPos and
	// ProfilePos those of the `protocol` and `profile` values; AddPos and
	// RemovePos those of each `principle_overrides` entry, index for
	// index. Resolution failures are reported at the field that names
	// what is missing.
	Pos, ProtocolPos, ProfilePos diag.Pos
	AddPos, RemovePos            []diag.Pos
}

// ReadTask decodes a task document strictly. The task is nil whenever the
// list holds errors.
func ReadTask(file string, data []byte) (*Task, diag.List) {
	doc, diags := parseNonEmpty(file, data, "the task document")
	if doc == nil {
		return nil, diags
	}
	d := decoder{r: yamldoc.NewReader(doc, &diags)}
	t := d.task(doc.Root)
	t.File = file
	if diags.HasErrors() {
		return nil, diags.Sorted()
	}
	return t, diags
}

func (d decoder) task(n *yaml.Node) *Task {
	m := d.r.Map(n, "", false)
	defer m.Done()
	t := &Task{Pos: yamldoc.PosOf(n)}
	if id, ok := d.r.String(m.Require("id"), "id"); ok {
		if err := ident.Check(ident.Loose, id); err != nil {
			d.r.Invalid(m.Get("id"), "id", "task `id` %q is not a valid identifier: %v", id, err)
		}
		t.ID = id
	}
	if v, k := m.GetAlias("kind", "type"); v != nil {
		if kind, ok := d.r.String(v, k); ok {
			t.Kind = canonicalTaskKind(kind)
			if !ident.Valid(ident.Kebab, t.Kind) {
				d.r.Invalid(v, k, "task `%s` must be a kebab-case word such as `feature`, found %q", k, kind)
			}
		}
	} else if m.Node() != nil {
		d.r.Report(m.Node(), "", diag.Errorf(yamldoc.CodeMissingField, "the required key `kind` is missing"))
	}
	if v := m.Require("objective"); v != nil {
		t.Objective = d.objective(v)
	}
	if v := m.Get("subject"); v != nil {
		t.Subject, _ = d.r.String(v, "subject")
	}
	if v := m.Require("protocol"); v != nil {
		t.ProtocolPos = yamldoc.PosOf(v)
		if s, ok := d.r.String(v, "protocol"); ok {
			ref, err := ident.ParsePinnedRef(ident.Kebab, s)
			if err != nil {
				d.r.Invalid(v, "protocol", "`protocol` must pin a protocol `<id>/<major>`: %v", err)
			}
			t.Protocol = ref
		}
	}
	if v := m.Require("profile"); v != nil {
		t.ProfilePos = yamldoc.PosOf(v)
		t.Profile, _ = d.r.String(v, "profile")
	}
	if v := m.Get("derived_from"); v != nil {
		items, _ := d.r.Seq(v, "derived_from", false)
		for i, it := range items {
			p := yamldoc.Index("derived_from", i)
			if it.Kind == yaml.MappingNode {
				am := d.r.Map(it, p, false)
				if s, ok := d.r.String(am.Require("artifact"), yamldoc.Key(p, "artifact")); ok {
					t.DerivedFrom = append(t.DerivedFrom, s)
				}
				am.Done()
			} else if s, ok := d.r.String(it, p); ok {
				t.DerivedFrom = append(t.DerivedFrom, s)
			}
		}
	}
	m.Allow("context")
	m.GetAlias("manifest", "artifact_manifest")
	if v := m.Get("constraints"); v != nil {
		cm := d.r.Map(v, "constraints", true)
		cm.Allow("capabilities", "notes", "ess_conformance_v2")
		if f := cm.Get("facts"); f != nil {
			t.Facts = d.facts(f, "constraints.facts")
		}
		cm.Done()
	}
	if v, k := m.GetAlias("principle_overrides", "principles"); v != nil {
		om := d.r.Map(v, k, true)
		if a := om.Get("add"); a != nil {
			t.Add, t.AddPos = d.strings(a, yamldoc.Key(k, "add"))
		}
		if r := om.Get("remove"); r != nil {
			t.Remove, t.RemovePos = d.strings(r, yamldoc.Key(k, "remove"))
		}
		om.Done()
	}
	return t
}

// strings decodes n as a list of strings with the position of each.
func (d decoder) strings(n *yaml.Node, path string) ([]string, []diag.Pos) {
	items, _ := d.r.Seq(n, path, false)
	var out []string
	var pos []diag.Pos
	for i, it := range items {
		if s, ok := d.r.String(it, yamldoc.Index(path, i)); ok {
			out, pos = append(out, s), append(pos, yamldoc.PosOf(it))
		}
	}
	return out, pos
}

func (d decoder) objective(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode {
		s, _ := d.r.String(n, "objective")
		return s
	}
	m := d.r.Map(n, "objective", false)
	defer m.Done()
	m.Allow("details")
	v, k := m.GetAlias("summary", "objective")
	if v == nil {
		if m.Node() != nil {
			d.r.Report(m.Node(), "objective", diag.Errorf(yamldoc.CodeMissingField, "the required key `summary` is missing"))
		}
		return ""
	}
	s, _ := d.r.String(v, yamldoc.Key("objective", k))
	return s
}

func canonicalTaskKind(k string) string {
	switch k {
	case "fix", "bug":
		return "bugfix"
	case "feat":
		return "feature"
	}
	return k
}

// DeclaredWork returns the task's declared work: its derived_from refs plus
// `task:<id>` (engine.md §4.5), versions stripped.
func (t *Task) DeclaredWork() []string {
	var out []string
	for _, r := range t.DerivedFrom {
		out = append(out, stripVersion(r))
	}
	out = append(out, "task:"+t.ID)
	return slices.Compact(out)
}

func stripVersion(ref string) string {
	for i := 0; i < len(ref); i++ {
		if ref[i] == '@' {
			return ref[:i]
		}
	}
	return ref
}

// decoder decodes a task document from strict YAML nodes. Governing
// documents are decoded by the shared models (packages tree, protocol and
// workflow); the task is the engine's own document.
type decoder struct {
	r *yamldoc.Reader
}

// facts reads a task's `facts` mapping (constraints.facts).
func (d decoder) facts(n *yaml.Node, path string) []Fact {
	return ReadFacts(d.r, n, path, true)
}

// ReadFacts reads a `facts` mapping of fact path → boolean, number or text
// at node n (document path path) into bindings in sorted path order, each
// value read by protocol.DecodeFact (the reader of a profile's facts too).
// A null mapping reads as empty when nullOK. Problems are reported into r
// and their entries left out. A simulation scenario's `facts` are read
// here, as a task's constraints.facts.
func ReadFacts(r *yamldoc.Reader, n *yaml.Node, path string, nullOK bool) []Fact {
	m := r.Map(n, path, nullOK)
	defer m.Done()
	var out []Fact
	for _, k := range m.Keys() {
		if v, ok := protocol.DecodeFact(r, k, m.Get(k.Value), yamldoc.Key(path, k.Value)); ok {
			out = append(out, Fact{Path: k.Value, Value: v})
		}
	}
	slices.SortStableFunc(out, func(a, b Fact) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// parseNonEmpty parses one YAML/JSON document, what naming it in the
// diagnostic an empty input gets. The document is nil whenever the list
// holds errors.
func parseNonEmpty(file string, data []byte, what string) (*yamldoc.Document, diag.List) {
	doc, diags := yamldoc.Parse(file, data)
	if doc == nil && !diags.HasErrors() {
		diags.Add(diag.Errorf(yamldoc.CodeMissingField, "%s is empty", what).At(file, diag.Pos{Line: 1, Column: 1}))
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return doc, diags
}
