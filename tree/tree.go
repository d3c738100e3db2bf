// Package tree loads an AEP document tree (documents.md §2): the protocols,
// principles, workflows, profiles, artifact lifecycles and step maps under
// one root, each read strictly, keyed by the identity its contents declare,
// and checked against each other (every step map against the workflow it
// pins).
//
// The tree is its own package because two stages need it and neither may
// import the other: the projection compiler selects a workflow and a step
// map from it, and the engine resolves protocols, principles and profiles
// from it. It is not for giving governing documents meaning (the engine
// does that) nor for projecting anything (the compiler does that); it only
// answers "what does this tree hold, and does it hold together".
package tree

import (
	"maps"
	"slices"
	"strings"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/ident"
	"github.com/aepflow/aepflow/internal/suggest"
	"github.com/aepflow/aepflow/protocol"
	"github.com/aepflow/aepflow/stepmap"
	"github.com/aepflow/aepflow/workflow"
)

// Kind is a document kind the tree knows.
type Kind string

// The document kinds of a tree, plus the ones validate can name.
const (
	KindProtocol  Kind = "protocol"
	KindPrinciple Kind = "principle"
	KindWorkflow  Kind = "workflow"
	KindProfile   Kind = "profile"
	KindLifecycle Kind = "lifecycle"
	KindStepMap   Kind = "step_map"
)

// Kinds lists every kind in load order.
var Kinds = []Kind{KindProtocol, KindPrinciple, KindWorkflow, KindProfile, KindLifecycle, KindStepMap}

// Row is one directory of the tree and the kind of document it holds.
type Row struct {
	Dir  string
	Kind Kind
}

// Rows lists the directories a tree is read from, in load order
// (documents.md §2.1). Any other directory is ignored.
var Rows = []Row{
	{"protocols", KindProtocol},
	{"principles", KindPrinciple},
	{"workflows", KindWorkflow},
	{"profiles", KindProfile},
	{"artifacts/lifecycles", KindLifecycle},
	{"drivers", KindStepMap},
}

// Codes this package reports (documents.md §2.3, §2.5, projection.md §2).
const (
	CodeMisplaced       = "misplaced_document"
	CodeUnknownWorkflow = "unknown_workflow"
	CodeVersionMismatch = "version_mismatch"
	CodeIOError         = "io_error"
	CodeUnknownKind     = "unknown_document_kind"
	CodeInputTooLarge   = "input_too_large"
)

// DuplicateCode returns the code for a second document of kind with an
// identity already taken: `duplicate_<kind>`.
func DuplicateCode(k Kind) string { return "duplicate_" + string(k) }

// File is one document the loader read, in load order.
type File struct {
	// Path is the file as reported in diagnostics: the root joined with
	// the path below it.
	Path string
	// Kind is the row's kind (or the detected kind for a single file).
	Kind Kind
}

// Tree is a loaded document tree. Its maps are for lookup: use the sorted
// accessors whenever order matters.
type Tree struct {
	// Root is the root directory as given.
	Root string
	// Workflows holds the workflows by id (one major per id).
	Workflows map[string]*workflow.Workflow
	// StepMaps holds the step maps by id.
	StepMaps map[string]*stepmap.Map
	// Protocols holds the protocols by (id, version).
	Protocols map[ident.Ref]*protocol.Protocol
	// Principles holds the principles by id.
	Principles map[string]*protocol.Principle
	// Profiles holds the profiles by id.
	Profiles map[string]*protocol.Profile
	// Lifecycles holds the lifecycles by artifact kind.
	Lifecycles map[string]*protocol.Lifecycle
	// Files lists every document read, in load order.
	Files []File
	// Sources holds the bytes of every file read, for printing source
	// lines under diagnostics.
	Sources diag.Sources

	// origin remembers which file declared each identity, per kind.
	origin map[Kind]map[string]string
	// entries are what was read, in load order, kept so that WithFile can
	// rebuild the registry without reading the other files again.
	entries []*entry
	// kinds are the kinds whose rows LoadKinds read.
	kinds []Kind
	// opts are the options of the load.
	opts Options
	// bytes counts the bytes read; full is set once they exceed
	// MaxTreeBytes.
	bytes int64
	full  bool
	// unwalked is set when a directory of the tree could not be walked
	// (a link, too many entries, an error): it has its own diagnostic,
	// and the tree may hold documents no one read.
	unwalked bool
	// broken remembers, per kind, the documents that failed to load (and
	// so are not in the registry): their id when it could be read, else
	// "". A reference to one is not reported again as "not in the tree".
	broken map[Kind]map[string][]string
	// unsound holds the documents that decoded with shape errors, in load
	// order: never registered, but what decoded of them is still checked.
	unsound []*Document
}

// entry is one file as the tree read it, or (with an empty file path) the
// refusal of a directory that could not be walked: the bytes, the document
// decoded from them (nil when it could not be used) and the diagnostics of
// reading, parsing, decoding and validating it on its own. An entry is
// never changed once made, so trees built by WithFile share them.
type entry struct {
	file  File
	data  []byte
	doc   *Document
	diags diag.List
	// brokenID is the id a document that could not be used declares, as
	// far as it can be read ("" when it cannot), for Tree.broken.
	brokenID string
	// sound: doc decoded without a shape error, so it may be registered;
	// a doc that is not sound is only checked (Tree.Unsound).
	sound bool
}

func newTree(root string) *Tree {
	return &Tree{
		Root:       root,
		Workflows:  map[string]*workflow.Workflow{},
		StepMaps:   map[string]*stepmap.Map{},
		Protocols:  map[ident.Ref]*protocol.Protocol{},
		Principles: map[string]*protocol.Principle{},
		Profiles:   map[string]*protocol.Profile{},
		Lifecycles: map[string]*protocol.Lifecycle{},
		Sources:    diag.Sources{},
		origin:     map[Kind]map[string]string{},
		broken:     map[Kind]map[string][]string{},
	}
}

// WorkflowIDs returns the ids of the tree's workflows in byte order.
func (t *Tree) WorkflowIDs() []string { return slices.Sorted(maps.Keys(t.Workflows)) }

// StepMapIDs returns the ids of the tree's step maps in byte order.
func (t *Tree) StepMapIDs() []string { return slices.Sorted(maps.Keys(t.StepMaps)) }

// StepMapList returns the tree's step maps in id order.
func (t *Tree) StepMapList() []*stepmap.Map {
	out := make([]*stepmap.Map, 0, len(t.StepMaps))
	for _, id := range t.StepMapIDs() {
		out = append(out, t.StepMaps[id])
	}
	return out
}

// PrincipleIDs returns the ids of the tree's principles in byte order.
func (t *Tree) PrincipleIDs() []string { return slices.Sorted(maps.Keys(t.Principles)) }

// ProfileIDs returns the ids of the tree's profiles in byte order.
func (t *Tree) ProfileIDs() []string { return slices.Sorted(maps.Keys(t.Profiles)) }

// LifecycleKinds returns the artifact kinds of the tree's lifecycles in
// byte order.
func (t *Tree) LifecycleKinds() []string { return slices.Sorted(maps.Keys(t.Lifecycles)) }

// ProtocolRefs returns the identities of the tree's protocols, ordered by
// id then version.
func (t *Tree) ProtocolRefs() []ident.Ref {
	refs := make([]ident.Ref, 0, len(t.Protocols))
	for r := range t.Protocols {
		refs = append(refs, r)
	}
	slices.SortFunc(refs, func(a, b ident.Ref) int {
		if c := strings.Compare(a.ID, b.ID); c != 0 {
			return c
		}
		return int(a.Major) - int(b.Major)
	})
	return refs
}

// Broken returns the files of kind that failed to load whose `id` reads
// as id, then those whose id could not be read at all, in load order. A
// reference to id that the registry cannot resolve may be meant for one of
// them.
func (t *Tree) Broken(kind Kind, id string) (named, unnamed []string) {
	return t.broken[kind][id], t.broken[kind][""]
}

// Unsound returns the documents that decoded with shape errors, in load
// order. They are not in the registry (nothing may resolve to one), but
// the registry-wide checks still judge the parts of them that decoded, so
// that a shape error in one part of a document does not hide the checks of
// the rest: the tree cross-checks their step maps and protocols, and
// engine.CheckReferences resolves what their profiles and protocols name.
func (t *Tree) Unsound() []*Document { return t.unsound }

// markBroken records file, of kind, as failed to load; id is its `id` as
// far as it could be read ("" when not).
func (t *Tree) markBroken(kind Kind, id, file string) {
	if t.broken[kind] == nil {
		t.broken[kind] = map[string][]string{}
	}
	t.broken[kind][id] = append(t.broken[kind][id], file)
}

// Workflow looks a workflow reference up: unpinned, any version of the id
// matches; pinned, only that major. Otherwise it returns an
// unknown_workflow diagnostic (as an error) naming the reference, the root,
// the ids the tree declares (byte order, or `none`) and, when the id exists
// at another major, that version (projection.md §2).
func (t *Tree) Workflow(ref ident.Ref) (*workflow.Workflow, error) {
	w := t.Workflows[ref.ID]
	if w != nil && ref.Accepts(w.Version) {
		return w, nil
	}
	ids := "none"
	if len(t.Workflows) > 0 {
		ids = strings.Join(t.WorkflowIDs(), ", ")
	}
	d := diag.Errorf(CodeUnknownWorkflow, "no workflow `%s` in the tree at `%s` (it declares: %s)", ref, t.Root, ids)
	switch named, _ := t.Broken(KindWorkflow, ref.ID); {
	case w != nil:
		d = d.WithHint("the tree holds `%s` at version %d; ask for `%s/%d` or `%s`", w.ID, w.Version, w.ID, w.Version, w.ID)
	case len(named) > 0:
		d = d.WithHint("`%s` declares it but failed to load; fix the problems reported there", named[0])
	default:
		if best, ok := suggest.Closest(ref.ID, t.WorkflowIDs()); ok {
			d = d.WithSuggestion(best)
		}
	}
	return nil, d
}
