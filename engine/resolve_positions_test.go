package engine

import (
	"bytes"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/diag/sarif"
	"github.com/aepflow/aepflow/tree"
)

// positionsTree is a small tree every case of TestResolveFailuresArePositioned
// resolves against.
var positionsTree = []tree.Source{
	{Path: "protocols/p.yaml", Kind: tree.KindProtocol, Data: []byte("id: p\ntitle: P\nphases: [work, completion]\nobservables: ['**']\n")},
	{Path: "protocols/other.yaml", Kind: tree.KindProtocol, Data: []byte("id: other\ntitle: O\n")},
	{Path: "principles/timed.yaml", Kind: tree.KindPrinciple, Data: []byte("id: timed\ntitle: T\nobligations:\n  - id: o\n    before: {phase: shipping}\n    requires: {predicates: [done]}\n")},
	{Path: "principles/during.yaml", Kind: tree.KindPrinciple, Data: []byte("id: during\ntitle: D\nrequires:\n  during: {state: nowhere}\n  predicates: [done]\n")},
	{Path: "workflows/w.yaml", Kind: tree.KindWorkflow, Data: []byte("id: w\ntitle: W\ninitial: a\nstates:\n  a: {title: A, phases: [work]}\n  b: {title: B, terminal: true, phases: [completion]}\ntransitions:\n  - {from: a, to: b}\n")},
	{Path: "profiles/prof.yaml", Kind: tree.KindProfile, Data: []byte("id: prof\ntitle: Prof\nprotocol: p/1\nworkflow: w\n")},
	{Path: "profiles/wrongproto.yaml", Kind: tree.KindProfile, Data: []byte("id: wrongproto\ntitle: W\nprotocol: other/1\nworkflow: w\n")},
	{Path: "profiles/noflow.yaml", Kind: tree.KindProfile, Data: []byte("id: noflow\ntitle: N\nprotocol: p/1\n")},
	{Path: "profiles/lost.yaml", Kind: tree.KindProfile, Data: []byte("id: lost\ntitle: L\nprotocol: p/1\nworkflow: gone\nprinciples: [absent]\n")},
	{Path: "profiles/timed.yaml", Kind: tree.KindProfile, Data: []byte("id: timed\ntitle: T\nprotocol: p/1\nworkflow: w\nprinciples: [timed, during]\n")},
}

// TestResolveFailuresArePositioned: every failure of Resolve is at the
// task's line that names what is missing (or, for a timing, at the
// principle's line that writes it), in text, JSON and SARIF alike. It used
// to carry the task's file and no line.
func TestResolveFailuresArePositioned(t *testing.T) {
	tr, ds := tree.LoadSources(".", positionsTree)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	for _, c := range []struct{ name, task, want string }{
		{"a protocol the tree lacks", "protocol: q/1\nprofile: prof\n",
			"t.yaml:4:11: protocol `q/1` is not in the tree [resolution_failed]"},
		{"a profile the tree lacks", "protocol: p/1\nprofile: nope\n",
			"t.yaml:5:10: profile `nope` is not in the tree [resolution_failed]"},
		{"a profile reference that is not one", "protocol: p/1\nprofile: \"Bad Ref\"\n",
			"t.yaml:5:10: task `profile` \"Bad Ref\" is not a profile reference: its id \"Bad Ref\" is invalid: it is not a dotted identifier (it must start with a lowercase ASCII letter) [resolution_failed]"},
		{"a pinned profile at another version", "protocol: p/1\nprofile: prof/2\n",
			"t.yaml:5:10: profile `prof` is version 1, the task pins 2 [resolution_failed]"},
		{"a profile for another protocol", "protocol: p/1\nprofile: wrongproto\n",
			"t.yaml:5:10: profile `wrongproto` is for protocol `other/1`, which is not the task's `p/1` and does not extend it [resolution_failed]"},
		{"a profile without a workflow", "protocol: p/1\nprofile: noflow\n",
			"t.yaml:5:10: profile `noflow` names no workflow [resolution_failed]"},
		{"a profile naming what the tree lacks", "protocol: p/1\nprofile: lost\n",
			"t.yaml:5:10: workflow `gone` of profile `lost` is not in the tree [resolution_failed]\n" +
				"t.yaml:5:10: principle `absent` is not in the tree [resolution_failed]"},
		{"an override naming what the tree lacks", "protocol: p/1\nprofile: prof\nprinciple_overrides:\n  add: [extra]\n  remove: [timed]\n",
			"t.yaml:7:9: principle `extra` is not in the tree [resolution_failed]\n" +
				"t.yaml:8:12: `principle_overrides.remove` names `timed`, which is not in force under profile `prof` [resolution_failed]"},
		{"obligations timed against what the workflow lacks", "protocol: p/1\nprofile: timed\n",
			"principles/during.yaml:4:3: obligation `during/during-nowhere` is timed against state `nowhere`, which workflow `w/1` lacks [unknown_state]\n" +
				"principles/timed.yaml:5:13: obligation `timed/o` is timed against phase `shipping`, which no state of workflow `w/1` declares [unknown_phase]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			task, ds := ReadTask("t.yaml", []byte("id: T-1\nkind: feature\nobjective: try\n"+c.task))
			if ds.HasErrors() {
				t.Fatal(ds)
			}
			_, ds = Resolve(tr, task)
			var lines []string
			for _, d := range ds.Sorted() {
				lines = append(lines, strings.Split(d.Error(), "\n")[0])
			}
			if got := strings.Join(lines, "\n"); got != c.want {
				t.Fatalf("got\n%s\nwant\n%s", got, c.want)
			}
			var js, log bytes.Buffer
			if err := diag.WriteJSON(&js, ds); err != nil {
				t.Fatal(err)
			}
			if err := sarif.Write(&log, ds, sarif.Tool{Name: "aepflow"}); err != nil {
				t.Fatal(err)
			}
			for _, d := range ds {
				if !strings.Contains(js.String(), `"line": `+itoa(d.Pos.Line)) {
					t.Errorf("JSON lacks line %d:\n%s", d.Pos.Line, js.String())
				}
				if !strings.Contains(log.String(), `"startLine": `+itoa(d.Pos.Line)) || !strings.Contains(log.String(), `"uri": "`+d.File+`"`) {
					t.Errorf("SARIF lacks %s:%d:\n%s", d.File, d.Pos.Line, log.String())
				}
			}
		})
	}
}
