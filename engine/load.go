package engine

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/ident"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/yamldoc"
	yaml "go.yaml.in/yaml/v3"
)

// Diagnostic codes of the loader and of resolution.
const (
	// CodeDuplicateDocument: two documents of one kind share an identity.
	CodeDuplicateDocument = "duplicate_document"
	// CodeUnreadable: a file or directory could not be read.
	CodeUnreadable = "unreadable"
)

// Dirs are the tree directories the engine loads, in load order.
var Dirs = []string{"protocols", "principles", "workflows", "profiles"}

// LoadDocuments reads the document tree at root (engine.md §1.1): the
// directories of Dirs, each walked recursively in byte-wise path order,
// dot-names skipped, `.yaml`/`.yml`/`.json` files only; a missing directory
// is empty. Every document is decoded strictly; every problem is listed.
func LoadDocuments(root string) (*Documents, diag.List) {
	docs := &Documents{}
	var diags diag.List
	for _, dir := range Dirs {
		for _, file := range treeFiles(filepath.Join(root, dir), &diags) {
			data, err := os.ReadFile(file)
			if err != nil {
				diags.Add(diag.Errorf(CodeUnreadable, "cannot read the document: %v", err).InFile(file))
				continue
			}
			LoadDocument(docs, dir, file, data, &diags)
		}
	}
	checkDuplicates(docs, &diags)
	return docs, diags.Sorted()
}

// treeFiles lists the document files under dir in byte-wise path order.
func treeFiles(dir string, diags *diag.List) []string {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) && path == dir {
				return filepath.SkipDir
			}
			return err
		}
		if path != dir && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".yaml", ".yml", ".json":
			if !d.IsDir() {
				files = append(files, path)
			}
		}
		return nil
	})
	if err != nil {
		diags.Add(diag.Errorf(CodeUnreadable, "cannot walk the directory: %v", err).InFile(dir))
	}
	slices.Sort(files)
	return files
}

// LoadDocument decodes one file of tree directory dir (protocols,
// principles, workflows or profiles) into docs.
func LoadDocument(docs *Documents, dir, file string, data []byte, diags *diag.List) {
	doc, ds := yamldoc.Parse(file, data)
	diags.Extend(ds)
	if doc == nil || ds.HasErrors() {
		return
	}
	d := decoder{r: yamldoc.NewReader(doc, diags)}
	before := len(diags.Errors())
	switch dir {
	case "protocols":
		p := d.protocol(doc.Root)
		if len(diags.Errors()) == before {
			p.File = file
			docs.Protocols = append(docs.Protocols, p)
		}
	case "principles":
		p := d.principle(doc.Root)
		if len(diags.Errors()) == before {
			p.File = file
			docs.Principles = append(docs.Principles, p)
		}
	case "workflows":
		w := d.workflow(doc.Root)
		if len(diags.Errors()) == before {
			w.File = file
			docs.Workflows = append(docs.Workflows, w)
		}
	case "profiles":
		p := d.profile(doc.Root)
		if len(diags.Errors()) == before {
			p.File = file
			docs.Profiles = append(docs.Profiles, p)
		}
	}
}

func checkDuplicates(docs *Documents, diags *diag.List) {
	dup := func(kind, id string, files []string) {
		diags.Add(diag.Errorf(CodeDuplicateDocument, "%s `%s` is declared twice, first in %s", kind, id, files[0]).InFile(files[1]))
	}
	seen := map[string][]string{}
	for _, p := range docs.Protocols {
		k := "protocol " + p.Ref()
		if seen[k] = append(seen[k], p.File); len(seen[k]) == 2 {
			dup("protocol", p.Ref(), seen[k])
		}
	}
	for _, p := range docs.Principles {
		k := "principle " + p.ID
		if seen[k] = append(seen[k], p.File); len(seen[k]) == 2 {
			dup("principle", p.ID, seen[k])
		}
	}
	for _, w := range docs.Workflows {
		k := "workflow " + w.Ref()
		if seen[k] = append(seen[k], w.File); len(seen[k]) == 2 {
			dup("workflow", w.Ref(), seen[k])
		}
	}
	for _, p := range docs.Profiles {
		k := "profile " + p.ID
		if seen[k] = append(seen[k], p.File); len(seen[k]) == 2 {
			dup("profile", p.ID, seen[k])
		}
	}
}

// header reads id (in charset c) and version (default 1), and allows title
// and summary.
func (d decoder) header(m *yamldoc.Map, c ident.Charset) (string, uint32) {
	m.Allow("title", "summary")
	id, ok := d.r.String(m.Require("id"), "id")
	if ok {
		if err := ident.Check(c, id); err != nil {
			d.r.Invalid(m.Get("id"), "id", "`id` %q is not a valid identifier: %v", id, err)
		}
	}
	version := uint32(1)
	if v := m.Get("version"); v != nil {
		version, _ = d.r.Uint32(v, "version", 1)
	}
	return id, version
}

func (d decoder) strings(m *yamldoc.Map, key string) []string {
	n := m.Get(key)
	if n == nil {
		return nil
	}
	return d.r.Strings(n, key, false)
}

func (d decoder) protocol(n *yaml.Node) *Protocol {
	m := d.r.Map(n, "", false)
	defer m.Done()
	p := &Protocol{}
	p.ID, p.Version = d.header(m, ident.Kebab)
	if v := m.Get("extends"); v != nil {
		if s, ok := d.r.String(v, "extends"); ok {
			ref, err := ident.ParsePinnedRef(ident.Kebab, s)
			if err != nil {
				d.r.Invalid(v, "extends", "`extends` must pin a protocol `<id>/<major>`: %v", err)
			} else {
				p.Extends = &ref
			}
		}
	}
	m.Allow("capabilities", "approval_floor", "default_failure_policy")
	p.EvidenceKinds = d.strings(m, "evidence_kinds")
	p.Verifiers = d.strings(m, "verifiers")
	p.ArtifactKinds = d.strings(m, "artifact_kinds")
	p.Phases = d.strings(m, "phases")
	p.Observables = d.strings(m, "observables")
	if v := m.Get("scales"); v != nil {
		sm := d.r.Map(v, "scales", false)
		for _, k := range sm.Keys() {
			sm.Allow(k.Value)
			p.Scales = append(p.Scales, Scale{Name: k.Value, Values: d.r.Strings(sm.Get(k.Value), yamldoc.Key("scales", k.Value), false)})
		}
		slices.SortFunc(p.Scales, func(a, b Scale) int { return strings.Compare(a.Name, b.Name) })
	}
	return p
}

func (d decoder) principle(n *yaml.Node) *Principle {
	m := d.r.Map(n, "", false)
	defer m.Done()
	p := &Principle{AppliesWhen: predicate.Always{}}
	p.ID, p.Version = d.header(m, ident.Kebab)
	m.Allow("capabilities")
	m.GetAlias("on_failure", "failure_policy")
	if v, k := m.GetAlias("applies_when", "applicability"); v != nil {
		p.AppliesWhen = d.predicate(v, k)
	}
	if v := m.Get("requires"); v != nil {
		p.Obligations = d.requires(p.ID, v, "requires")
	}
	if v := m.Get("obligations"); v != nil {
		p.Obligations = append(p.Obligations, d.explicitObligations(p.ID, v, "obligations")...)
	}
	p.Obligations = numberRepeats(p.Obligations)
	for i, it := range d.items(m.Get("evidence"), "evidence") {
		if e, ok := d.evidenceReq(it, yamldoc.Index("evidence", i)); ok {
			p.Evidence = append(p.Evidence, e)
		}
	}
	for i, it := range d.items(m.Get("verification"), "verification") {
		if v, ok := d.verification(it, yamldoc.Index("verification", i)); ok {
			p.Verification = append(p.Verification, v)
		}
	}
	return p
}

func (d decoder) verification(n *yaml.Node, path string) (Verification, bool) {
	var v Verification
	if n.Kind == yaml.ScalarNode {
		var ok bool
		v.Verifier, ok = d.r.String(n, path)
		return v, ok
	}
	m := d.r.Map(n, path, false)
	defer m.Done()
	m.Allow("before", "during")
	var ok bool
	v.Verifier, ok = d.r.String(m.Require("verifier"), yamldoc.Key(path, "verifier"))
	if c := m.Get("claim"); c != nil {
		v.Claim, _ = d.r.String(c, yamldoc.Key(path, "claim"))
	}
	if c := m.Get("subject_kind"); c != nil {
		v.SubjectKind, _ = d.artifactKind(c, yamldoc.Key(path, "subject_kind"))
	}
	return v, ok
}

// defaultTiming is Before{phase: completion}.
var defaultTiming = Timing{Kind: Before, Phase: "completion"}

// requires decodes a principle's `requires` into obligations (engine.md
// §4.6): timing keys in sorted order, then the gathered set.
func (d decoder) requires(principle string, n *yaml.Node, path string) []Obligation {
	if n.Kind != yaml.MappingNode {
		set := d.reqSet(n, path)
		return []Obligation{{ID: principle + "/" + defaultTiming.Slug(), Principle: principle, Timing: defaultTiming, Requires: set}}
	}
	type kv struct{ k, v *yaml.Node }
	var pairs []kv
	for i := 0; i+1 < len(n.Content); i += 2 {
		pairs = append(pairs, kv{n.Content[i], n.Content[i+1]})
	}
	slices.SortStableFunc(pairs, func(a, b kv) int { return strings.Compare(a.k.Value, b.k.Value) })
	var out []Obligation
	selector := defaultTiming
	var selectorNode *yaml.Node
	rest := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: n.Line, Column: n.Column}
	for _, p := range pairs {
		key := p.k.Value
		kp := yamldoc.Key(path, key)
		var t Timing
		switch {
		case key == "always":
			t = Timing{Kind: Always}
		case strings.HasPrefix(key, "before_") || strings.HasPrefix(key, "during_"):
			kind, phase, _ := strings.Cut(key, "_")
			phase = strings.ReplaceAll(phase, "_", "-")
			if !ident.Valid(ident.Kebab, phase) {
				d.r.Report(p.k, kp, diag.Errorf("unknown_phase", "`%s` does not name a phase (`%s` is not kebab-case)", key, phase))
				continue
			}
			t = Timing{Kind: Before, Phase: phase}
			if kind == "during" {
				t.Kind = During
			}
		case key == "before" || key == "during":
			selector = d.target(p.v, kp, key)
			selectorNode = p.k
			continue
		default:
			rest.Content = append(rest.Content, p.k, p.v)
			continue
		}
		out = append(out, Obligation{ID: principle + "/" + t.Slug(), Principle: principle, Timing: t, Requires: d.reqSet(p.v, kp)})
	}
	if len(rest.Content) > 0 {
		out = append(out, Obligation{ID: principle + "/" + selector.Slug(), Principle: principle, Timing: selector, Requires: d.reqSet(rest, path)})
	} else if selectorNode != nil {
		d.r.Report(selectorNode, yamldoc.Key(path, selectorNode.Value), diag.Errorf(yamldoc.CodeInvalidValue, "the `%s` selector has nothing to time", selectorNode.Value).
			WithHint("add requirement keys beside it, or remove it"))
	}
	return out
}

// target reads a timing target: {phase: P}, {state: S} or a bare phase.
func (d decoder) target(n *yaml.Node, path, kind string) Timing {
	t := Timing{Kind: Before}
	if kind == "during" {
		t.Kind = During
	}
	if n.Kind == yaml.ScalarNode {
		t.Phase, _ = d.r.String(n, path)
		return t
	}
	m := d.r.Map(n, path, false)
	defer m.Done()
	if v := m.Get("phase"); v != nil {
		t.Phase, _ = d.r.String(v, yamldoc.Key(path, "phase"))
	} else if v := m.Get("state"); v != nil {
		t.State, _ = d.r.String(v, yamldoc.Key(path, "state"))
	} else if m.Node() != nil {
		d.r.Report(m.Node(), path, diag.Errorf(yamldoc.CodeMissingField, "a timing target needs `phase` or `state`"))
	}
	return t
}

func (d decoder) explicitObligations(principle string, n *yaml.Node, path string) []Obligation {
	var out []Obligation
	items, _ := d.r.Seq(n, path, false)
	for i, it := range items {
		p := yamldoc.Index(path, i)
		m := d.r.Map(it, p, false)
		m.Allow("description")
		id, ok := d.r.String(m.Require("id"), yamldoc.Key(p, "id"))
		t := defaultTiming
		switch {
		case m.Get("always") != nil:
			t = Timing{Kind: Always}
		case m.Get("before") != nil:
			t = d.target(m.Get("before"), yamldoc.Key(p, "before"), "before")
		case m.Get("during") != nil:
			t = d.target(m.Get("during"), yamldoc.Key(p, "during"), "during")
		}
		set := &ReqSet{}
		if rq, k := m.GetAlias("requires", "require"); rq != nil {
			set = d.reqSet(rq, yamldoc.Key(p, k))
		}
		m.Done()
		if ok {
			out = append(out, Obligation{ID: principle + "/" + id, Principle: principle, Timing: t, Requires: set})
		}
	}
	return out
}

// numberRepeats suffixes repeated obligation ids with -2, -3, ...
func numberRepeats(obs []Obligation) []Obligation {
	count := map[string]int{}
	for i := range obs {
		id := obs[i].ID
		count[id]++
		if count[id] > 1 {
			obs[i].ID = id + "-" + itoa(count[id])
		}
	}
	return obs
}

func (d decoder) workflow(n *yaml.Node) *Workflow {
	m := d.r.Map(n, "", false)
	defer m.Done()
	w := &Workflow{}
	w.ID, w.Version = d.header(m, ident.Dotted)
	m.Allow("allow_unreachable_states")
	w.Initial, _ = d.r.String(m.Require("initial"), "initial")
	if sn := m.Require("states"); sn != nil {
		sm := d.r.Map(sn, "states", false)
		for _, k := range sm.Keys() {
			w.States = append(w.States, d.state(k.Value, sm.Get(k.Value), yamldoc.Key("states", k.Value)))
		}
	}
	if tn := m.Get("transitions"); tn != nil {
		items, _ := d.r.Seq(tn, "transitions", false)
		for i, it := range items {
			w.Transitions = append(w.Transitions, d.transition(it, yamldoc.Index("transitions", i)))
		}
	}
	return w
}

func (d decoder) state(id string, n *yaml.Node, path string) *State {
	s := &State{ID: id, Requires: &ReqSet{}}
	m := d.r.Map(n, path, true)
	defer m.Done()
	m.Allow("title", "summary", "capabilities", "irreversible")
	m.GetAlias("on_failure", "failure_policy")
	if v := m.Get("terminal"); v != nil {
		s.Terminal, _ = d.r.Bool(v, yamldoc.Key(path, "terminal"))
	}
	if v := m.Get("phases"); v != nil {
		s.Phases = d.r.Strings(v, yamldoc.Key(path, "phases"), false)
	}
	if v, k := m.GetAlias("requires", "require"); v != nil {
		s.Requires = d.reqSet(v, yamldoc.Key(path, k))
	}
	return s
}

func (d decoder) transition(n *yaml.Node, path string) Transition {
	t := Transition{When: predicate.Always{}, Requires: &ReqSet{}}
	m := d.r.Map(n, path, false)
	defer m.Done()
	m.Allow("description")
	m.GetAlias("on_failure", "failure_policy")
	t.From, _ = d.r.String(m.Require("from"), yamldoc.Key(path, "from"))
	t.To, _ = d.r.String(m.Require("to"), yamldoc.Key(path, "to"))
	if v := m.Get("when"); v != nil {
		t.When = d.predicate(v, yamldoc.Key(path, "when"))
	}
	if v, k := m.GetAlias("requires", "require"); v != nil {
		t.Requires = d.reqSet(v, yamldoc.Key(path, k))
	}
	return t
}

func (d decoder) profile(n *yaml.Node) *Profile {
	m := d.r.Map(n, "", false)
	defer m.Done()
	p := &Profile{}
	p.ID, p.Version = d.header(m, ident.Dotted)
	m.Allow("capabilities")
	if v := m.Require("protocol"); v != nil {
		if s, ok := d.r.String(v, "protocol"); ok {
			ref, err := ident.ParsePinnedRef(ident.Kebab, s)
			if err != nil {
				d.r.Invalid(v, "protocol", "`protocol` must pin a protocol `<id>/<major>`: %v", err)
			}
			p.Protocol = ref
		}
	}
	if v := m.Get("extends"); v != nil {
		p.Extends, _ = d.r.String(v, "extends")
	}
	if v := m.Get("workflow"); v != nil {
		if s, ok := d.r.String(v, "workflow"); ok {
			ref, err := ident.ParseRef(ident.Dotted, s)
			if err != nil {
				d.r.Invalid(v, "workflow", "`workflow` is not a workflow reference: %v", err)
			} else {
				p.Workflow = &ref
			}
		}
	}
	p.Principles = d.strings(m, "principles")
	if v, k := m.GetAlias("without_principles", "remove_principles"); v != nil {
		p.Without = d.r.Strings(v, k, false)
	}
	if v := m.Get("completion"); v != nil {
		p.Completion = d.reqSet(v, "completion")
	}
	if v := m.Get("facts"); v != nil {
		p.Facts = d.facts(v, "facts")
	}
	return p
}

// facts reads a `facts` mapping of fact path → scalar, in sorted key order.
func (d decoder) facts(n *yaml.Node, path string) []Fact {
	m := d.r.Map(n, path, true)
	defer m.Done()
	var out []Fact
	for _, k := range m.Keys() {
		v := m.Get(k.Value)
		p := yamldoc.Key(path, k.Value)
		if !predicate.ValidFactPath(k.Value) {
			d.r.Invalid(k, p, "`%s` is not a fact path", k.Value)
			continue
		}
		val, ok := scalarValue(v)
		if !ok {
			d.r.WrongType(v, p, "a boolean, number or string")
			continue
		}
		out = append(out, Fact{Path: k.Value, Value: val})
	}
	slices.SortStableFunc(out, func(a, b Fact) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// scalarValue turns a YAML scalar into a fact value (YAML 1.2 core: only
// true/false are booleans).
func scalarValue(n *yaml.Node) (predicate.Value, bool) {
	if n == nil || n.Kind != yaml.ScalarNode {
		return predicate.Value{}, false
	}
	switch n.Tag {
	case "!!bool":
		return predicate.Bool(strings.ToLower(n.Value) == "true"), true
	case "!!int", "!!float":
		if f, ok := predicate.ParseNumber(n.Value); ok {
			return predicate.Number(f), true
		}
		return predicate.Value{}, false
	case "!!null":
		return predicate.Value{}, false
	}
	return predicate.Text(n.Value), true
}

func itoa(n int) string { return strconv.Itoa(n) }
