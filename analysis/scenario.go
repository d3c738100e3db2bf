package analysis

import (
	"time"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/engine"
	"github.com/aepflow/aepflow/engine/artifact"
	"github.com/aepflow/aepflow/engine/evidence"
	"github.com/aepflow/aepflow/internal/suggest"
	"github.com/aepflow/aepflow/workflow"
	"github.com/aepflow/aepflow/yamldoc"
	yaml "go.yaml.in/yaml/v3"
)

// ScenarioFormat is the format a scenario mapping declares (§10.3).
const ScenarioFormat = "aep.scenario/1"

// MaxScenarioFile bounds one scenario or evidence document, read before it
// is parsed.
const MaxScenarioFile = 4 << 20

// Codes of the scenario reader.
const (
	// CodeScenarioNowTwice: `now` is given by more than one file.
	CodeScenarioNowTwice = "scenario_now_twice"
	// CodeScenarioTooLarge: the scenario files hold more than
	// MaxScenarioRecords records, or the walk would submit more.
	CodeScenarioTooLarge = "scenario_too_large"
)

// MaxScenarioRecords bounds the records of one simulation, all files
// together, and the records its walk submits, all submissions together:
// every move rebuilds the fact store from the whole log, so the walk costs
// moves × records, and an `on_entry` entry without `visit` is submitted
// again on every entry into its state.
const MaxScenarioRecords = 5000

// ScenarioFile is one `--evidence` argument: its name and bytes.
type ScenarioFile struct {
	Name string
	Data []byte
}

// OnEntry is the evidence submitted on an entry into a state: the Visit-th
// (0: every entry). File, Pos and Path locate the entry in its scenario
// document, for a walk that refuses what it submits.
type OnEntry struct {
	Visit   uint32
	Records []evidence.Record
	// RecordsAt locates each of Records in its file.
	RecordsAt []evidence.Entry
	File      string
	Pos       diag.Pos
	Path      string
}

// Scenario is the merge of the scenario documents of one simulation
// (§10.3), in argument order.
type Scenario struct {
	// Now is the clock (set when HasNow).
	Now    time.Time
	HasNow bool
	// Facts are bound as a task's constraints.facts, in order.
	Facts []engine.Fact
	// Graph is the artifact graph built from `artifacts`.
	Graph *artifact.Graph
	// Evidence is submitted in the initial state first; EvidenceAt
	// locates each record in its file.
	Evidence   []evidence.Record
	EvidenceAt []evidence.Entry
	// Entries maps a state to what its entries submit, in order.
	Entries map[string][]OnEntry
}

// ReadScenarios reads and merges the scenario documents (a list is an
// evidence document; a mapping declares ScenarioFormat) against workflow
// w. now is the clock used when no document sets one. Every problem is
// listed; the scenario is nil whenever the list holds errors.
func ReadScenarios(files []ScenarioFile, w *workflow.Workflow, now time.Time) (*Scenario, diag.List) {
	var diags diag.List
	type parsed struct {
		file string
		doc  *yamldoc.Document
	}
	var docs []parsed
	sc := &Scenario{Entries: map[string][]OnEntry{}}
	nowFile := ""
	for _, f := range files {
		doc, ds := yamldoc.Parse(f.Name, f.Data)
		diags.Extend(ds)
		if doc == nil || ds.HasErrors() {
			continue
		}
		docs = append(docs, parsed{f.Name, doc})
		if doc.Root == nil || doc.Root.Kind != yaml.MappingNode {
			continue
		}
		for i := 0; i+1 < len(doc.Root.Content); i += 2 {
			if doc.Root.Content[i].Value != "now" {
				continue
			}
			n := doc.Root.Content[i+1]
			if sc.HasNow {
				diags.Add(diag.Errorf(CodeScenarioNowTwice, "`now` is set again; %s set it first", nowFile).
					At(f.Name, yamldoc.PosOf(n)).WithPath("now").WithHint("keep `now` in one scenario file"))
				continue
			}
			ms, ok := evidence.ParseDate(n)
			if !ok {
				diags.Add(diag.Errorf(yamldoc.CodeInvalidValue, "`now` must be a date `YYYY-MM-DD` or epoch milliseconds, found %q", n.Value).
					At(f.Name, yamldoc.PosOf(n)).WithPath("now"))
				continue
			}
			sc.Now, sc.HasNow, nowFile = time.UnixMilli(ms).UTC(), true, f.Name
		}
	}
	if !sc.HasNow {
		sc.Now = now
	}
	var arts []artifact.DeclaredArtifact
	for _, p := range docs {
		r := yamldoc.NewReader(p.doc, &diags)
		switch root := p.doc.Root; {
		case root != nil && root.Kind == yaml.SequenceNode:
			sc.addEvidence(evidence.ReadEntries(r, root, "", sc.Now))
		case root != nil && root.Kind == yaml.MappingNode:
			arts = append(arts, sc.readMapping(r, root, w)...)
		default:
			// An empty or null file is refused like any other shape: a
			// scenario that holds nothing is most likely the wrong file.
			r.WrongType(root, "", "a list of records or a scenario mapping")
		}
	}
	if n := sc.records(); n > MaxScenarioRecords {
		diags.Add(diag.Errorf(CodeScenarioTooLarge, "the scenario holds %d records, more than the %d a simulation reads", n, MaxScenarioRecords).
			InFile(files[len(files)-1].Name).WithHint("split the scenario into shorter simulations"))
	}
	if g, ds := artifact.CheckArtifacts(arts); ds.HasErrors() {
		diags.Extend(ds)
	} else {
		sc.Graph = g
	}
	if diags.HasErrors() {
		return nil, diags.Sorted()
	}
	return sc, diags
}

// readMapping reads one scenario mapping into sc and returns its artifacts.
func (sc *Scenario) readMapping(r *yamldoc.Reader, n *yaml.Node, w *workflow.Workflow) []artifact.DeclaredArtifact {
	m := r.Map(n, "", false)
	defer m.Done()
	if f, ok := r.String(m.Require("format"), "format"); ok && f != ScenarioFormat {
		r.Invalid(m.Get("format"), "format", "a scenario must declare `format: %s`, found %q", ScenarioFormat, f)
	}
	m.Allow("now")
	if fn := m.Get("facts"); fn != nil {
		sc.Facts = append(sc.Facts, engine.ReadFacts(r, fn, "facts", false)...)
	}
	var arts []artifact.DeclaredArtifact
	if an := m.Get("artifacts"); an != nil {
		items, _ := r.Seq(an, "artifacts", false)
		for i, it := range items {
			arts = append(arts, artifact.ReadArtifact(r, it, yamldoc.Index("artifacts", i)))
		}
	}
	if en := m.Get("evidence"); en != nil {
		sc.addEvidence(evidence.ReadEntries(r, en, "evidence", sc.Now))
	}
	if on := m.Get("on_entry"); on != nil {
		sc.readOnEntry(r, on, w)
	}
	return arts
}

// readOnEntry reads `on_entry`: state → list of {visit?, evidence}.
func (sc *Scenario) readOnEntry(r *yamldoc.Reader, n *yaml.Node, w *workflow.Workflow) {
	om := r.Map(n, "on_entry", false)
	defer om.Done()
	for _, key := range om.Keys() {
		state := key.Value
		path := yamldoc.Key("on_entry", state)
		om.Allow(state)
		if w.States[state] == nil {
			d := diag.Errorf(CodeUnknownStateEntry, "`on_entry` names state `%s`, which workflow `%s` lacks", state, w.Ref()).
				WithHint("the workflow's states: %s", suggest.List(w.StateIDs()))
			if best, ok := suggest.Closest(state, w.StateIDs()); ok {
				d = d.WithSuggestion(best)
			}
			r.Report(key, path, d)
			continue
		}
		items, _ := r.Seq(om.Get(state), path, false)
		for i, it := range items {
			p := yamldoc.Index(path, i)
			em := r.Map(it, p, false)
			e := OnEntry{File: r.File, Pos: yamldoc.PosOf(it), Path: p}
			if vn := em.Get("visit"); vn != nil {
				e.Visit, _ = r.Uint32(vn, yamldoc.Key(p, "visit"), 1)
			}
			if en := em.Require("evidence"); en != nil {
				e.Records, e.RecordsAt = evidence.ReadEntries(r, en, yamldoc.Key(p, "evidence"), sc.Now)
			}
			em.Done()
			sc.Entries[state] = append(sc.Entries[state], e)
		}
	}
}

// addEvidence appends records read from an `evidence` list, with where
// they stand.
func (sc *Scenario) addEvidence(recs []evidence.Record, at []evidence.Entry) {
	sc.Evidence = append(sc.Evidence, recs...)
	sc.EvidenceAt = append(sc.EvidenceAt, at...)
}

// records counts the scenario's records, `on_entry` included.
func (sc *Scenario) records() int {
	n := len(sc.Evidence)
	for _, es := range sc.Entries {
		for _, e := range es {
			n += len(e.Records)
		}
	}
	return n
}
