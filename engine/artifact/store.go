package artifact

import (
	"bytes"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/internal/fsio"
	"github.com/aepflow/aepflow/yamldoc"
	yaml "go.yaml.in/yaml/v3"
)

// Diagnostic codes of the store and manifest readers.
const (
	// CodeFrontMatter: a planning file has no `---` front matter or it is
	// not a mapping.
	CodeFrontMatter = "store_front_matter"
	// CodeDuplicateArtifact: two artifacts share one id.
	CodeDuplicateArtifact = "duplicate_artifact"
	// CodeUnknownTarget: a relation names an artifact absent from the graph.
	CodeUnknownTarget = "unknown_relation_target"
	// CodeSelfRelation: an artifact relates to itself.
	CodeSelfRelation = "self_relation"
	// CodeRelationCycle: the edges of one relation kind form a cycle.
	CodeRelationCycle = "relation_cycle"
)

// MaxPlanningFile is the largest planning file read, in bytes (4 MiB, the
// bound of every AEP document): a larger one is refused from its size,
// before it is read.
const MaxPlanningFile = 4 << 20

// MaxStoreBytes bounds the bytes of all the planning files of one store
// (64 MiB): the store is read on every consultation of the hook, so many
// large files must not exhaust memory. A store past it is refused.
const MaxStoreBytes = 64 << 20

// storeOverBudget refuses the store at file, the first past MaxStoreBytes.
func storeOverBudget(file string) diag.Diagnostic {
	return diag.Errorf("input_too_large", "the planning store's files exceed the limit of %s in all", fsio.FormatSize(MaxStoreBytes)).InFile(file)
}

// MaxStoreEntries bounds the entries (files and directories, planning
// files or not) of the planning store, in all: 100,000, where a real
// store holds hundreds. The store is read on every consultation of the
// hook, and an agent can write into it.
const MaxStoreEntries = 100_000

// storeEntryLimit is MaxStoreEntries, lowered by tests.
var storeEntryLimit = MaxStoreEntries

// storeReadDirError is the diagnostic of a directory of the store that
// could not be read: input_too_large past MaxStoreEntries (the store
// refused whole), store_unreadable otherwise.
func storeReadDirError(dir string, err error) diag.Diagnostic {
	if fsio.IsTooManyEntries(err) {
		return diag.Errorf("input_too_large", "the planning store holds more than %d entries (files and directories) in all", storeEntryLimit).InFile(dir)
	}
	return diag.Errorf("store_unreadable", "cannot read the planning store: %v", err).InFile(dir)
}

// planningReadError is the diagnostic for a planning file that fsio
// refused: input_too_large over MaxPlanningFile, store_unreadable for the
// rest (not a regular file, unreadable).
func planningReadError(path string, err error) diag.Diagnostic {
	if fsio.IsTooLarge(err) {
		return diag.Errorf("input_too_large", "the planning file is larger than the limit of %s", fsio.FormatSize(MaxPlanningFile)).InFile(path)
	}
	return diag.Errorf("store_unreadable", "cannot read a planning file: %s", fsio.Reason(err)).InFile(path)
}

// entry is an artifact with where it was declared, for diagnostics.
type entry struct {
	Artifact
	file string
	pos  diag.Pos
}

// ReadStore reads the planning store at dir (engine.md §2.4): every
// `<dir>/<sub>/<name>.md` (dot-names skipped, other files ignored). A
// missing directory is an empty store. Any problem makes the store
// unreadable: the Graph is nil whenever the list holds errors.
func ReadStore(dir string) (*Graph, diag.List) {
	var diags diag.List
	// Stat before opening: opening a named pipe would block.
	if st, err := os.Stat(dir); os.IsNotExist(err) {
		return NewGraph(nil), nil
	} else if err == nil && !st.IsDir() {
		diags.Add(diag.Errorf("store_unreadable", "cannot read the planning store: `%s` is not a directory", dir).InFile(dir))
		return nil, diags
	}
	seen := 0 // entries met, against storeEntryLimit
	subs, err := fsio.ReadDir(dir, storeEntryLimit)
	if os.IsNotExist(err) {
		return NewGraph(nil), nil
	}
	if err != nil {
		diags.Add(storeReadDirError(dir, err))
		return nil, diags
	}
	seen += len(subs)
	var entries []entry
	var total int64
	for _, sub := range subs {
		if strings.HasPrefix(sub.Name(), ".") {
			continue
		}
		if sub.Type()&fs.ModeSymlink != 0 {
			// Not walked (as a tree does not walk one), and not passed
			// over in silence: the artifacts behind it would be missing,
			// and a guard on a missing artifact would hold.
			// A link that leads nowhere may have been a directory of
			// planning files: it is refused too.
			path := filepath.Join(dir, sub.Name())
			switch info, err := os.Stat(path); {
			case err != nil:
				diags.Add(diag.Errorf("store_unreadable", "cannot read the planning store: `%s` is a symbolic link that leads nowhere (%v), so what it named is not read", path, fsio.Reason(err)).InFile(path))
			case info.IsDir():
				diags.Add(diag.Errorf("store_unreadable", "cannot read the planning store: `%s` is a symbolic link to a directory, which is not followed, so the files under it are not read", path).InFile(path))
			}
			continue
		}
		if !sub.IsDir() {
			continue
		}
		files, err := fsio.ReadDir(filepath.Join(dir, sub.Name()), storeEntryLimit-seen)
		if fsio.IsTooManyEntries(err) {
			diags.Add(storeReadDirError(dir, err))
			return nil, diags.Sorted()
		}
		if err != nil {
			diags.Add(storeReadDirError(filepath.Join(dir, sub.Name()), err))
			continue
		}
		seen += len(files)
		for _, f := range files {
			name := f.Name()
			if strings.HasPrefix(name, ".") || f.IsDir() || !strings.HasSuffix(name, ".md") {
				continue
			}
			path := filepath.Join(dir, sub.Name(), name)
			if info, err := os.Stat(path); err == nil && info.Mode().IsRegular() && info.Size() <= MaxPlanningFile && total+info.Size() > MaxStoreBytes {
				diags.Add(storeOverBudget(path))
				return nil, diags.Sorted()
			}
			data, err := fsio.ReadFile(path, MaxPlanningFile)
			if err != nil {
				diags.Add(planningReadError(path, err))
				continue
			}
			if total += int64(len(data)); total > MaxStoreBytes {
				diags.Add(storeOverBudget(path))
				return nil, diags.Sorted()
			}
			if e, ok := parsePlanningFile(path, data, &diags); ok {
				entries = append(entries, e)
			}
		}
	}
	return finish(entries, diags)
}

// finish checks the collected entries and builds the graph.
func finish(entries []entry, diags diag.List) (*Graph, diag.List) {
	checkGraph(entries, &diags)
	if diags.HasErrors() {
		return nil, diags.Sorted()
	}
	arts := make([]Artifact, len(entries))
	for i, e := range entries {
		arts[i] = e.Artifact
	}
	return NewGraph(arts), diags
}

// FrontMatter splits a planning file into its front matter bytes and the
// 1-based line where they start; ok is false when the file does not open
// with a `---` line closed by another.
func FrontMatter(data []byte) (fm []byte, line int, ok bool) {
	lines := bytes.SplitAfter(data, []byte("\n"))
	if len(lines) == 0 || !isFence(lines[0]) {
		return nil, 0, false
	}
	for i := 1; i < len(lines); i++ {
		if isFence(lines[i]) {
			return bytes.Join(lines[1:i], nil), 2, true
		}
	}
	return nil, 0, false
}

func isFence(l []byte) bool {
	return string(bytes.TrimRight(l, "\r\n")) == "---"
}

// parsePlanningFile reads one planning file's front matter into an
// artifact, reporting problems into diags.
func parsePlanningFile(file string, data []byte, diags *diag.List) (entry, bool) {
	fm, first, ok := FrontMatter(data)
	if !ok {
		diags.Add(diag.Errorf(CodeFrontMatter, "the file does not start with `---` front matter closed by a `---` line").At(file, diag.Pos{Line: 1, Column: 1}))
		return entry{}, false
	}
	doc, ds := yamldoc.Parse(file, fm)
	for _, d := range ds {
		if d.Pos.IsValid() {
			d.Pos.Line += first - 1
		}
		diags.Add(d)
	}
	if ds.HasErrors() || doc == nil {
		if doc == nil && !ds.HasErrors() {
			diags.Add(diag.Errorf(CodeFrontMatter, "the front matter is empty").At(file, diag.Pos{Line: first, Column: 1}))
		}
		return entry{}, false
	}
	shift(doc.Root, first-1)
	r := yamldoc.NewReader(doc, diags)
	before := len(*diags)
	m := r.Map(doc.Root, "", false)
	if f, ok := r.String(m.Require("format"), "format"); ok && !validFormat(f) {
		r.Invalid(m.Get("format"), "format", "`format` must be `aep.planning-md/1` to `/3`, found %q", f)
	}
	e := readArtifact(r, &m, "")
	return e, !(*diags)[before:].HasErrors()
}

// shift moves every node of n down by d lines (front matter starts after
// the opening fence).
func shift(n *yaml.Node, d int) {
	if n == nil {
		return
	}
	n.Line += d
	for _, c := range n.Content {
		shift(c, d)
	}
}

func validFormat(f string) bool {
	switch f {
	case "aep.planning-md/1", "aep.planning-md/2", "aep.planning-md/3":
		return true
	}
	return false
}

// ValidID reports whether id is `<namespace>:<name>` with both parts
// non-empty over [A-Za-z0-9._/-].
func ValidID(id string) bool {
	ns, name, ok := strings.Cut(id, ":")
	return ok && validIDPart(ns) && validIDPart(name)
}

func validIDPart(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("._/-", c) >= 0) {
			return false
		}
	}
	return true
}

// readArtifact reads id, kind, status, version and relations from m; other
// keys are ignored (the store holds titles, owners, tags...).
func readArtifact(r *yamldoc.Reader, m *yamldoc.Map, path string) entry {
	e := entry{file: r.File, pos: yamldoc.PosOf(m.Node())}
	if id, ok := r.String(m.Require("id"), yamldoc.Key(path, "id")); ok {
		if !ValidID(id) {
			r.Invalid(m.Get("id"), yamldoc.Key(path, "id"), "`id` must be `<namespace>:<name>`, found %q", id)
		}
		e.ID = id
	}
	if k, ok := r.String(m.Require("kind"), yamldoc.Key(path, "kind")); ok {
		c, valid := CanonicalKind(k)
		if !valid {
			r.Invalid(m.Get("kind"), yamldoc.Key(path, "kind"), "`kind` must be an artifact kind (kebab-case), found %q", k)
		}
		e.Kind = c
	}
	if s, ok := r.String(m.Require("status"), yamldoc.Key(path, "status")); ok {
		if !ValidStatus(s) {
			r.Invalid(m.Get("status"), yamldoc.Key(path, "status"), "`status` must be a status such as `approved` (`[a-z][a-z0-9_-]*`), found %q", s)
		}
		e.Status = s
	}
	if v := m.Get("version"); v != nil && v.Kind == yaml.ScalarNode {
		e.Version = v.Value
	}
	e.Relations = readRelations(r, m.Get("relations"), yamldoc.Key(path, "relations"))
	return e
}

func readRelations(r *yamldoc.Reader, n *yaml.Node, path string) []Relation {
	items, ok := r.Seq(n, path, false)
	if !ok {
		return nil
	}
	var rels []Relation
	for i, it := range items {
		p := yamldoc.Index(path, i)
		if it.Kind != yaml.MappingNode || len(it.Content) != 2 {
			r.WrongType(it, p, "a one-key mapping `<relation>: <ref>`")
			continue
		}
		k, v := it.Content[0], it.Content[1]
		if !slices.Contains(Relations, k.Value) {
			r.Invalid(k, p, "unknown relation `%s`; expected one of %s", k.Value, strings.Join(sorted(Relations), ", "))
			continue
		}
		ref, ok := r.String(v, yamldoc.Key(p, k.Value))
		if !ok {
			continue
		}
		target, version, _ := strings.Cut(ref, "@")
		if !ValidID(target) {
			r.Invalid(v, yamldoc.Key(p, k.Value), "relation target must be `<namespace>:<name>[@<version>]`, found %q", ref)
			continue
		}
		rels = append(rels, Relation{Kind: k.Value, Target: target, Version: version})
	}
	return rels
}

func sorted(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return c
}

// checkGraph reports duplicate ids, missing targets, self-relations and
// cycles within one relation kind.
func checkGraph(entries []entry, diags *diag.List) {
	seen := map[string]entry{}
	for _, e := range entries {
		if e.ID == "" {
			continue
		}
		if first, dup := seen[e.ID]; dup {
			diags.Add(diag.Errorf(CodeDuplicateArtifact, "artifact `%s` is declared twice", e.ID).At(e.file, e.pos).
				WithRelated(first.file, first.pos, "first declared here"))
			continue
		}
		seen[e.ID] = e
	}
	for _, e := range entries {
		for _, rel := range e.Relations {
			switch {
			case rel.Target == e.ID:
				diags.Add(diag.Errorf(CodeSelfRelation, "artifact `%s` relates to itself (`%s`)", e.ID, rel.Kind).At(e.file, e.pos))
			case !has(seen, rel.Target):
				diags.Add(diag.Errorf(CodeUnknownTarget, "artifact `%s` relation `%s` names `%s`, which the store does not hold", e.ID, rel.Kind, rel.Target).At(e.file, e.pos))
			}
		}
	}
	for _, kind := range Relations {
		if cyc := findCycle(entries, kind); cyc != nil {
			e := seen[cyc[0]]
			diags.Add(diag.Errorf(CodeRelationCycle, "`%s` relations form a cycle: %s", kind, strings.Join(cyc, " -> ")).At(e.file, e.pos))
		}
	}
}

func has(m map[string]entry, k string) bool { _, ok := m[k]; return ok }

// findCycle returns one cycle among the edges of kind (first node repeated
// at the end), searching from ids in sorted order, or nil.
func findCycle(entries []entry, kind string) []string {
	edges := map[string][]string{}
	for _, e := range entries {
		for _, rel := range e.Relations {
			if rel.Kind == kind && rel.Target != e.ID {
				edges[e.ID] = append(edges[e.ID], rel.Target)
			}
		}
	}
	const (
		white = iota
		grey
		black
	)
	color := map[string]int{}
	var stack []string
	var cycle []string
	var visit func(string) bool
	visit = func(n string) bool {
		color[n] = grey
		stack = append(stack, n)
		for _, t := range edges[n] {
			switch color[t] {
			case grey:
				i := slices.Index(stack, t)
				cycle = append(slices.Clone(stack[i:]), t)
				return true
			case white:
				if visit(t) {
					return true
				}
			}
		}
		stack = stack[:len(stack)-1]
		color[n] = black
		return false
	}
	for _, n := range slices.Sorted(maps.Keys(edges)) {
		if color[n] == white && visit(n) {
			return cycle
		}
	}
	return nil
}

// ReadManifest reads an artifact manifest `{version: aep.artifacts/1,
// artifacts: [...]}` into a checked Graph (nil when the list holds errors).
func ReadManifest(file string, data []byte) (*Graph, diag.List) {
	doc, diags := yamldoc.Parse(file, data)
	if doc == nil || diags.HasErrors() {
		return nil, diags
	}
	r := yamldoc.NewReader(doc, &diags)
	m := r.Map(doc.Root, "", false)
	if v, ok := r.String(m.Require("version"), "version"); ok && v != "aep.artifacts/1" {
		r.Invalid(m.Get("version"), "version", "`version` must be `aep.artifacts/1`, found %q", v)
	}
	items, _ := r.Seq(m.Require("artifacts"), "artifacts", false)
	m.Done()
	var entries []entry
	for i, it := range items {
		p := yamldoc.Index("artifacts", i)
		am := r.Map(it, p, false)
		am.Allow("location", "freshness", "metadata")
		entries = append(entries, readArtifact(r, &am, p))
		am.Done()
	}
	return finish(entries, diags)
}

// String returns "id (status)" for messages.
func (a Artifact) String() string { return fmt.Sprintf("%s (%s)", a.ID, a.Status) }
