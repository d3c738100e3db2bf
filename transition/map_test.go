package transition

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/project/projecttest"
)

// Step maps written beside the fixture project for TestMapFlag.
const (
	goodMap = "format: aep.driver-steps/1\nid: fx/mine\nworkflow: fx/flow/1\nstates:\n  implement:\n    steps:\n      - kind: operator\n        prompt: Implement it.\n"
	// structuralMap has two §8.3 errors: an unpinned workflow and a
	// visit budget of 0.
	structuralMap = "format: aep.driver-steps/1\nid: fx/broken\nworkflow: fx/flow\nstates:\n  implement:\n    visit_budget: 0\n    steps:\n      - kind: operator\n        prompt: Implement it.\n"
	otherMajorMap = "format: aep.driver-steps/1\nid: fx/next\nworkflow: fx/flow/2\nstates:\n  implement:\n    steps:\n      - kind: operator\n        prompt: Implement it.\n"
	otherIDMap    = "format: aep.driver-steps/1\nid: fx/elsewhere\nworkflow: fx/other/1\nstates:\n  implement:\n    steps:\n      - kind: operator\n        prompt: Implement it.\n"
	// unknownStateMap names two states fx/flow lacks.
	unknownStateMap = "format: aep.driver-steps/1\nid: fx/stray\nworkflow: fx/flow/1\nstates:\n  polish:\n    steps:\n      - kind: operator\n        prompt: Polish it.\n  implement:\n    steps:\n      - kind: operator\n        prompt: Implement it.\n  deploy:\n    steps:\n      - kind: operator\n        prompt: Ship it.\n"
)

// fxStates is the hint naming fx/flow's states.
const fxStates = "the workflow's states: adversarial_verify, complete, declined, establish_verifiers, implement, receive, review, specify, verify"

// TestMapFlag: an explicit --map is loaded, validated and cross-validated
// with packages stepmap and tree; any problem is CANNOT (exit 1) with one
// line naming the map and every problem, and a map that fits changes
// nothing (#02's refusal, exit 2).
func TestMapFlag(t *testing.T) {
	dir := t.TempDir()
	ownFixture().Build(t, dir, projectF)
	file := func(name, body string) string {
		p := filepath.Join(dir, "maps", name)
		projecttest.WriteFile(t, p, []byte(body))
		return p
	}
	good := file("good.yaml", goodMap)
	structural := file("structural.yaml", structuralMap)
	major := file("major.yaml", otherMajorMap)
	otherID := file("other-id.yaml", otherIDMap)
	stray := file("stray.yaml", unknownStateMap)
	empty := file("empty.yaml", "")
	projecttest.WriteFile(t, filepath.Join(dir, "tree", "drivers", "fx", "stray.yaml"), []byte(strings.ReplaceAll(unknownStateMap, "fx/stray", "fx/tree-stray")))
	treeStray := filepath.Join(dir, "tree", "drivers", "fx", "stray.yaml")

	tests := []struct {
		name, x string
		want    string // the exact CANNOT message; "" for #02's refusal
	}{
		{"good id", "fx/flow-steps", ""},
		{"good file", good, ""},
		{"good file inside drivers", filepath.Join(dir, "tree", "drivers", "fx", "flow.yaml"), ""},
		{"structural errors", structural, "--map " + structural + ": " +
			structural + ":3:11: the workflow reference `fx/flow` names no major version; a step map is written for one [missing_declaration] (pin it: `fx/flow/1`); " +
			structural + ":6:19: state `implement` has a visit budget of 0, so it could never be entered [empty_declaration] (give a budget of 1 or more, or leave it out for the default of 3)"},
		{"empty file", empty, "--map " + empty + ": " + empty + ": `driver-steps` must be a mapping, found nothing [wrong_type]"},
		{"unknown id", "fx/other", "--map fx/other: no step map has the id `fx/other` [unknown_step_map] (the tree's step maps: fx/flow-steps, fx/tree-stray)"},
		{"neither file nor id", "Not A Map", "--map Not A Map: `Not A Map` is neither a file nor a step map id: "},
		{"another major", major, "--map " + major + ": step map `fx/next` (" + major + ") does not fit workflow `fx/flow/1`: " +
			major + ":3:11: the step map is pinned to `fx/flow/2`, but workflow `fx/flow` is at version 1 [version_mismatch] (a new major version of a workflow means the map is rewritten for it, not migrated)"},
		{"another workflow", otherID, "--map " + otherID + ": step map `fx/elsewhere` (" + otherID + ") does not fit workflow `fx/flow/1`: " +
			otherID + ":3:11: the step map is pinned to `fx/other/1`, not to workflow `fx/flow` [unknown_workflow]"},
		{"unknown states", stray, "--map " + stray + ": step map `fx/stray` (" + stray + ") does not fit workflow `fx/flow/1`: " +
			stray + ":5:3: state `polish` is not a state of workflow `fx/flow` [unknown_state] (" + fxStates + "); " +
			stray + ":13:3: state `deploy` is not a state of workflow `fx/flow` [unknown_state] (" + fxStates + ")"},
		{"unknown states by id", "fx/tree-stray", "--map fx/tree-stray: step map `fx/tree-stray` (" + treeStray + ") does not fit workflow `fx/flow/1`: " +
			treeStray + ":5:3: state `polish` is not a state of workflow `fx/flow` [unknown_state] (" + fxStates + "); " +
			treeStray + ":13:3: state `deploy` is not a state of workflow `fx/flow` [unknown_state] (" + fxStates + ")"},
	}
	base := matrix(ownExpect)["02"][0]
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := base
			c.mutate = func(o *Options) { o.Map = tc.x }
			out := ask(t, ownFixture(), dir, c)
			if tc.want == "" {
				check(t, c, out)
				if out.ExitCode() != 2 {
					t.Errorf("exit %d, want 2", out.ExitCode())
				}
				return
			}
			if out.Kind != Cannot || out.ExitCode() != 1 {
				t.Fatalf("got %+v (exit %d), want CANNOT (exit 1)", out, out.ExitCode())
			}
			if strings.HasSuffix(tc.want, ": ") {
				if !strings.HasPrefix(out.Message, tc.want) {
					t.Errorf("message\n got %s\nwant prefix %s", out.Message, tc.want)
				}
			} else if out.Message != tc.want {
				t.Errorf("message\n got %s\nwant %s", out.Message, tc.want)
			}
			if strings.ContainsAny(out.Message, "\r\n") {
				t.Errorf("the message is not one line: %q", out.Message)
			}
		})
	}
}

// TestMapFlagDrivers: drivers/ is read only to look an id up. A map given
// as a file needs no drivers/ and ignores a broken one; an id needs a
// drivers/ that reads cleanly, since the broken file may be the one named.
func TestMapFlagDrivers(t *testing.T) {
	dir := t.TempDir()
	ownFixture().Build(t, dir, projectF)
	good := filepath.Join(dir, "good.yaml")
	projecttest.WriteFile(t, good, []byte(goodMap))
	drivers := filepath.Join(dir, "tree", "drivers")
	base := matrix(ownExpect)["02"][0]
	with := func(x string) consultation {
		c := base
		c.mutate = func(o *Options) { o.Map = x }
		return c
	}

	broken := filepath.Join(drivers, "broken.yaml")
	projecttest.WriteFile(t, broken, []byte("format: [unclosed\n"))
	check(t, with(good), ask(t, ownFixture(), dir, with(good)))
	out := ask(t, ownFixture(), dir, with("fx/flow-steps"))
	want := "--map fx/flow-steps: " + broken + ":2:1: the file is not valid YAML or JSON: did not find expected ',' or ']' [yaml_syntax]"
	if out.Kind != Cannot || out.Message != want {
		t.Errorf("broken drivers/, id:\n got %+v\nwant %s", out, want)
	}

	dup := filepath.Join(drivers, "dup.yaml")
	if err := os.Remove(broken); err != nil {
		t.Fatal(err)
	}
	projecttest.WriteFile(t, dup, []byte(strings.ReplaceAll(goodMap, "fx/mine", "fx/flow-steps")))
	out = ask(t, ownFixture(), dir, with("fx/flow-steps"))
	if out.Kind != Cannot || !strings.Contains(out.Message, "[duplicate_step_map]") {
		t.Errorf("duplicate id: got %+v", out)
	}

	if err := os.RemoveAll(drivers); err != nil {
		t.Fatal(err)
	}
	check(t, with(good), ask(t, ownFixture(), dir, with(good)))
	out = ask(t, ownFixture(), dir, with("fx/flow-steps"))
	want = "--map fx/flow-steps: no step map has the id `fx/flow-steps` [unknown_step_map] (the tree has no step maps under drivers/; pass a file instead)"
	if out.Kind != Cannot || out.Message != want {
		t.Errorf("no drivers/, id:\n got %+v\nwant %s", out, want)
	}
}

// TestCheckSetupReads: CheckSetup names every file the hook will read —
// the task, each tree document, the step map an id names, the planning
// store's files — so that `aepflow hooks --out` lands on none of them.
func TestCheckSetupReads(t *testing.T) {
	dir := t.TempDir()
	ownFixture().Build(t, dir, projectF)
	reads, err := CheckSetup(Options{Project: dir, Map: "fx/flow-steps"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		filepath.Join(dir, ".engineering", "task.yaml"),
		filepath.Join(dir, "tree", "workflows", "fx", "flow.yaml"),
		filepath.Join(dir, "tree", "drivers", "fx", "flow.yaml"),
	} {
		if !slices.Contains(reads, want) {
			t.Errorf("reads %v lack %s", reads, want)
		}
	}
	var planning int
	for _, r := range reads {
		if strings.Contains(r, filepath.Join(".engineering", "planning")+string(filepath.Separator)) {
			planning++
		}
	}
	if planning == 0 {
		t.Errorf("reads %v name no planning file", reads)
	}
	// Without a map the tree is still what the hook reads.
	if reads, err := CheckSetup(Options{Project: dir}); err != nil || !slices.Contains(reads, filepath.Join(dir, "tree", "workflows", "fx", "flow.yaml")) {
		t.Errorf("without --map: %v, %v", reads, err)
	}
}
