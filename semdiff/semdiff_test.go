package semdiff

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/internal/testkit"
	"github.com/aepflow/aepflow/tree"
)

var update = flag.Bool("update", false, "rewrite golden files")

// load reads one fixture document, which must validate clean.
func load(t testing.TB, file string) *tree.Document {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	d, ds := tree.LoadDocument(file, data, "")
	if d == nil || ds.HasErrors() {
		t.Fatalf("%s does not validate: %v", file, ds)
	}
	return d
}

// compare compares two fixture files of one kind.
func compare(t testing.TB, oldFile, newFile string) Document {
	t.Helper()
	o, n := load(t, oldFile), load(t, newFile)
	if o.Kind != n.Kind {
		t.Fatalf("%s is a %s, %s a %s", oldFile, o.Kind, newFile, n.Kind)
	}
	if o.Kind == tree.KindWorkflow {
		return Workflows(o.Workflow, n.Workflow)
	}
	return StepMaps(o.StepMap, n.StepMap)
}

// pairs lists the fixture pairs: testdata/pairs/<case>/old.yaml and
// new.yaml (or new.json).
func pairs(t testing.TB) map[string][2]string {
	t.Helper()
	out := map[string][2]string{}
	for _, old := range testkit.Files(t, "testdata/pairs/*/old.yaml") {
		dir := filepath.Dir(old)
		news, _ := filepath.Glob(filepath.Join(dir, "new.*"))
		if len(news) != 1 {
			t.Fatalf("%s: want one new.yaml or new.json, found %q", dir, news)
		}
		out[filepath.Base(dir)] = [2]string{old, news[0]}
	}
	return out
}

// TestPairs compares every fixture pair and checks the three printed forms
// against goldens next to the pair (want.txt, want.json, want.md). A case
// named same-* must find no change at all; every other case must find one.
func TestPairs(t *testing.T) {
	for name, files := range pairs(t) {
		t.Run(name, func(t *testing.T) {
			d := compare(t, files[0], files[1])
			if same := strings.HasPrefix(name, "same-"); d.Changed() == same {
				t.Errorf("Changed() = %v for a case named %s:\n%s", d.Changed(), name, text(t, Single(d)))
			}
			dir := filepath.Dir(files[0])
			r := Single(d)
			for _, out := range []struct {
				file  string
				write func(*bytes.Buffer, *Report) error
			}{
				{"want.txt", func(b *bytes.Buffer, r *Report) error { return WriteText(b, r) }},
				{"want.json", func(b *bytes.Buffer, r *Report) error { return WriteJSON(b, r) }},
				{"want.md", func(b *bytes.Buffer, r *Report) error { return WriteMarkdown(b, r) }},
			} {
				var b bytes.Buffer
				if err := out.write(&b, r); err != nil {
					t.Fatal(err)
				}
				testkit.Golden(t, filepath.Join(dir, out.file), b.Bytes(), *update)
			}
		})
	}
}

func text(t testing.TB, r *Report) string {
	var b bytes.Buffer
	if err := WriteText(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestBehaviourAndVersion pins down the versioning rule case by case: a
// behaviour change under the same version is flagged, the same change
// with a new major is not, and a change of titles, summaries and
// descriptions is no behaviour change.
func TestBehaviourAndVersion(t *testing.T) {
	all := pairs(t)
	for name, want := range map[string]struct{ behaviour, flagged bool }{
		"bypass-review":             {true, true},
		"version-bump":              {true, false},
		"cosmetic":                  {false, false},
		"initial":                   {true, true},
		"reordered":                 {true, true},
		"retreats":                  {true, true},
		"state-fields":              {true, true},
		"transition-fields":         {true, true},
		"transitions-added-removed": {true, true},
		"states-added-removed":      {true, true},
	} {
		files, ok := all[name]
		if !ok {
			t.Errorf("no fixture pair %s", name)
			continue
		}
		c := compare(t, files[0], files[1]).(*WorkflowChange)
		if c.BehaviourChanged != want.behaviour || c.UnversionedBehaviourChange != want.flagged {
			t.Errorf("%s: behaviour changed %v, flagged %v; want %v, %v", name, c.BehaviourChanged, c.UnversionedBehaviourChange, want.behaviour, want.flagged)
		}
	}
}

// TestWhatEachPairFinds checks the facts each pair exists for, so that a
// golden regenerated over a regression cannot hide it.
func TestWhatEachPairFinds(t *testing.T) {
	all := pairs(t)
	wf := func(name string) *WorkflowChange {
		return compare(t, all[name][0], all[name][1]).(*WorkflowChange)
	}
	sm := func(name string) *StepMapChange {
		return compare(t, all[name][0], all[name][1]).(*StepMapChange)
	}
	if c := wf("initial"); c.Initial == nil || c.Initial.Old != "plan" || c.Initial.New != "intake" {
		t.Errorf("initial: %+v", c.Initial)
	}
	if c := wf("states-added-removed"); len(c.States.Added) != 1 || c.States.Added[0].ID != "abandoned" ||
		len(c.States.Removed) != 1 || c.States.Removed[0].ID != "dropped" {
		t.Errorf("states: %+v", c.States)
	}
	fields := map[string]bool{}
	for _, s := range wf("state-fields").States.Changed {
		for _, f := range s.Fields {
			fields[s.ID+"."+f.Field] = true
		}
	}
	for _, f := range []string{"plan.title", "plan.summary", "plan.phases", "build.capabilities", "check.on_failure",
		"review.requires", "merged.irreversible", "dropped.terminal", "dropped.summary"} {
		if !fields[f] {
			t.Errorf("state-fields: %s not reported (got %v)", f, fields)
		}
	}
	if c := wf("transitions-added-removed"); len(c.Transitions.Added) != 1 || c.Transitions.Added[0].To != "merged" ||
		c.Transitions.Added[0].Position != 3 || len(c.Transitions.Removed) != 1 || c.Transitions.Removed[0].To != "dropped" {
		t.Errorf("transitions: %+v", c.Transitions)
	}
	tf := wf("transition-fields").Transitions.Changed
	byKey := map[string]TransitionChange{}
	for _, c := range tf {
		byKey[c.From+"->"+c.To] = c
	}
	if c := byKey["review->merged"]; c.Guard == nil || c.Guard.Old != "review.approved" || c.Guard.New != "(review.approved and approvals.release.granted)" {
		t.Errorf("guard change: %+v", c)
	}
	if c, ok := byKey["check->review"]; !ok || c.Guard != nil || len(c.Fields) != 1 || c.Fields[0].Field != "on_failure" {
		t.Errorf("a reordered conjunction with a new policy must report the policy only: %+v", c)
	}
	if c := byKey["check->build"]; len(c.Fields) != 1 || c.Fields[0].Field != "description" {
		t.Errorf("description: %+v", c)
	}
	// A guard whose display hides the change (the text "0" for the number
	// 0) is shown in its typed forms, which differ.
	if c := wf("guard-types"); len(c.Transitions.Changed) != 1 || c.Transitions.Changed[0].Guard == nil ||
		c.Transitions.Changed[0].Guard.Old == c.Transitions.Changed[0].Guard.New {
		t.Errorf("guard-types: %+v", c.Transitions.Changed)
	}
	if c := wf("guard-types"); len(c.States.Changed) != 1 || len(c.States.Changed[0].Fields) != 1 ||
		reflect.DeepEqual(c.States.Changed[0].Fields[0].Old, c.States.Changed[0].Fields[0].New) {
		t.Errorf("guard-types: a requirement shown alike on both sides: %+v", c.States.Changed)
	}
	if c := wf("reordered"); len(c.Transitions.Reordered) != 1 || c.Transitions.Reordered[0].From != "review" ||
		strings.Join(c.Transitions.Reordered[0].New, " ") != "build merged dropped" ||
		len(c.Transitions.Added)+len(c.Transitions.Removed)+len(c.Transitions.Changed) != 0 {
		t.Errorf("reordered: %+v", c.Transitions)
	}
	if c := wf("retreats"); strings.Join(c.Impact.Flow.RetreatsGained, " ") != "plan-to-review" ||
		strings.Join(c.Impact.Flow.RetreatsLost, " ") != "build-to-review" || len(c.Impact.Flow.Renested) == 0 {
		t.Errorf("retreats: %+v", c.Impact.Flow)
	}
	if c := wf("cosmetic"); c.Impact == nil || c.Impact.Diagram.Line != "diagram: unchanged" ||
		c.Impact.Flow.Line != "flow: same groups and retreats; the text of its steps changed" {
		t.Errorf("cosmetic impact: %+v", c.Impact)
	}
	// Two files whose only difference is the id: the field, and nothing the
	// flow runs or the diagram draws (both name the workflow, which made the
	// flow's text "changed" and the diagram "arrows drawn in another order").
	if c := wf("renamed"); len(c.Fields) != 1 || c.Fields[0].Field != "id" || c.Impact == nil ||
		c.Impact.Flow.Line != "flow: unchanged" || c.Impact.Diagram.Line != "diagram: unchanged" {
		t.Errorf("renamed: %+v, impact %+v", c.Fields, c.Impact)
	}
	if c := wf("state-fields"); !strings.Contains(c.Impact.Diagram.Line, "1 state retitled") {
		t.Errorf("state-fields diagram: %+v", c.Impact.Diagram)
	}
	if c := wf("bypass-review"); strings.Join(c.Impact.Flow.GroupsAdded, " ") != "hotfix" {
		t.Errorf("bypass-review flow: %+v", c.Impact.Flow)
	}
	if c := sm("stepmap-pin"); c.Pin == nil || c.Pin.Old != "shop/change/1" || c.Pin.New != "shop/change/2" || len(c.States.Changed) != 0 {
		t.Errorf("pin: %+v", c)
	}
	c := sm("stepmap-steps")
	if len(c.States.Added) != 1 || c.States.Added[0].ID != "merged" || len(c.States.Removed) != 1 || c.States.Removed[0].ID != "review" {
		t.Errorf("map states: %+v", c.States)
	}
	states := map[string]MapStateChange{}
	for _, s := range c.States.Changed {
		states[s.ID] = s
	}
	if s := states["check"]; len(s.Steps.Added) != 1 || s.Steps.Added[0].Label != "Lint." || s.Steps.Reordered == nil ||
		len(s.Steps.Changed) != 1 || s.Steps.Changed[0].Label != "The unit suite." {
		t.Errorf("check steps: %+v", s.Steps)
	}
	if s := states["build"]; len(s.Fields) != 1 || s.Fields[0].Field != "visit_budget" || len(s.Steps.Changed) != 1 {
		t.Errorf("build: %+v", s)
	}
}

// TestSymmetry compares every pair both ways: what one way adds the other
// removes, and a document compared with itself has no change.
func TestSymmetry(t *testing.T) {
	for name, files := range pairs(t) {
		fwd := compare(t, files[0], files[1])
		back := compare(t, files[1], files[0])
		if fwd.Changed() != back.Changed() {
			t.Errorf("%s: changed %v one way, %v the other", name, fwd.Changed(), back.Changed())
		}
		for _, f := range files {
			if self := compare(t, f, f); self.Changed() {
				t.Errorf("%s compared with itself: %s", f, text(t, Single(self)))
			}
		}
		if w, ok := fwd.(*WorkflowChange); ok {
			b := back.(*WorkflowChange)
			if len(w.States.Added) != len(b.States.Removed) || len(w.Transitions.Added) != len(b.Transitions.Removed) ||
				len(w.Transitions.Changed) != len(b.Transitions.Changed) || len(w.Transitions.Reordered) != len(b.Transitions.Reordered) {
				t.Errorf("%s: not symmetric:\n%s\n%s", name, text(t, Single(fwd)), text(t, Single(back)))
			}
		}
	}
}

// TestJSONShape checks the keys issue 17 names, and that lists are [] and
// unchanged values null rather than absent.
func TestJSONShape(t *testing.T) {
	all := pairs(t)
	var b bytes.Buffer
	if err := WriteJSON(&b, Single(compare(t, all["same-comments"][0], all["same-comments"][1]))); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"id", "kind", "initial", "states", "transitions", "impact", "version"} {
		if _, ok := got[k]; !ok {
			t.Errorf("key %q missing in %s", k, b.String())
		}
	}
	if got["initial"] != nil || got["impact"] != nil {
		t.Errorf("unchanged initial and impact must be null: %s", b.String())
	}
	states := got["states"].(map[string]any)
	for _, k := range []string{"added", "removed", "changed"} {
		if l, ok := states[k].([]any); !ok || len(l) != 0 {
			t.Errorf("states.%s = %v, want []", k, states[k])
		}
	}
	b.Reset()
	if err := WriteJSON(&b, Single(compare(t, all["transition-fields"][0], all["transition-fields"][1]))); err != nil {
		t.Fatal(err)
	}
	var tf struct {
		Transitions struct {
			Changed []struct {
				From, To string
				Guard    *struct{ Old, New string }
			}
		}
	}
	if err := json.Unmarshal(b.Bytes(), &tf); err != nil || len(tf.Transitions.Changed) == 0 {
		t.Fatalf("%v %s", err, b.String())
	}
}
