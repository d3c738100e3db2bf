// The tests live outside the package so that they can use
// internal/testkit, which imports diag; the dot import keeps them reading
// as if inside.
package diag_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/diag/sarif"
	"github.com/aepflow/aepflow/internal/testkit"
)

var update = flag.Bool("update", false, "rewrite golden files")

// sample is a list in emission order, with a duplicate and a positionless
// cross-document problem, as a validator would produce it.
func sample() List {
	return List{
		Errorf("unknown_state", "`verify` is not a declared state").At("b.yaml", Pos{7, 11}).
			WithPath("workflow demo.transitions[2].to"),
		Warningf("state_id_misread_by_governor", "the state id `a-to-b` reads as a retreat group").
			At("a.yaml", Pos{3, 3}).WithPath("workflow demo.states.a-to-b"),
		Errorf("duplicate_key", "the key `id` is given twice in one mapping (first on line 1)").
			At("a.yaml", Pos{2, 1}).WithRelated("a.yaml", Pos{1, 1}, "first given here"),
		Errorf("unknown_workflow", "no workflow `adp/other` in the tree").
			WithPath("driver-steps[x].workflow").WithHint("the tree declares: adp/default"),
		Errorf("unknown_state", "`verify` is not a declared state").At("b.yaml", Pos{7, 11}).
			WithPath("workflow demo.transitions[2].to"),
		Errorf("dead_end_state", "`x` has no way out").At("b.yaml", Pos{7, 3}).WithHint("add a transition or `terminal: true`"),
	}
}

var sources = Sources{
	"a.yaml": []byte("id: demo\nid: again\n  a-to-b: {title: X}\n"),
	"b.yaml": []byte("1\n2\n3\n4\n5\n6\n\tx: {to: verify}\n"),
}

func TestSortedOrdersAndDedupes(t *testing.T) {
	got := sample().Sorted()
	want := []string{"duplicate_key", "state_id_misread_by_governor", "dead_end_state", "unknown_state", "unknown_workflow"}
	if strings.Join(got.Codes(), " ") != strings.Join(want, " ") {
		t.Fatalf("Sorted codes = %v, want %v", got.Codes(), want)
	}
	if errs, warns := got.Count(); errs != 4 || warns != 1 {
		t.Errorf("Count = %d, %d", errs, warns)
	}
	if !got.HasErrors() || len(got.Errors()) != 4 {
		t.Errorf("HasErrors/Errors wrong")
	}
}

func TestErrorShapes(t *testing.T) {
	l := sample()
	cases := map[string]string{
		l[0].Error(): "b.yaml:7:11: `verify` is not a declared state [unknown_state]",
		l[1].Error(): "a.yaml:3:3: warning: the state id `a-to-b` reads as a retreat group [state_id_misread_by_governor]",
		l[3].Error(): "driver-steps[x].workflow: no workflow `adp/other` in the tree [unknown_workflow]",
	}
	for got, want := range cases {
		if got != want {
			t.Errorf("Error() = %q, want %q", got, want)
		}
	}
	if (Diagnostic{File: "f", Message: "m"}).Error() != "f: m" {
		t.Errorf("a file without position prints the file alone")
	}
}

func TestErrAndAsList(t *testing.T) {
	if (List{Warningf("w", "only a warning")}).Err() != nil {
		t.Fatal("a list of warnings is not an error")
	}
	err := sample().Err()
	l, ok := AsList(err)
	if !ok || len(l) != 5 {
		t.Fatalf("AsList = %v, %v", l, ok)
	}
	if !strings.HasPrefix(err.Error(), "a.yaml:2:1: the key `id`") {
		t.Errorf("Err().Error() starts %q", err.Error())
	}
	if _, ok := AsList(errors.New("plain")); ok {
		t.Error("a plain error carries no diagnostics")
	}
	if l, ok := AsList(Errorf("c", "one")); !ok || len(l) != 1 {
		t.Error("a Diagnostic is a one-item list")
	}
}

func TestSeverityText(t *testing.T) {
	var s Severity
	for _, word := range []string{"warning", "error"} {
		if err := s.UnmarshalText([]byte(word)); err != nil || s.String() != word {
			t.Errorf("round trip of %q gave %v, %v", word, s, err)
		}
	}
	if s.UnmarshalText([]byte("fatal")) == nil {
		t.Error("unknown severity accepted")
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	testkit.Golden(t, filepath.Join("testdata", name), got, *update)
}

func TestPrinters(t *testing.T) {
	l := sample().Sorted()
	var text, js, sarifLog bytes.Buffer
	if err := WriteText(&text, l, sources); err != nil {
		t.Fatal(err)
	}
	golden(t, "sample.txt.golden", text.Bytes())
	if err := WriteJSON(&js, l); err != nil {
		t.Fatal(err)
	}
	golden(t, "sample.json.golden", js.Bytes())
	if err := sarif.Write(&sarifLog, l, sarif.Tool{Name: "aepflow", Version: "v1.2.3", InformationURI: "https://example.test/aepflow", Rule: sampleRule}); err != nil {
		t.Fatal(err)
	}
	golden(t, "sample.sarif.golden", sarifLog.Bytes())

	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Results []struct {
				RuleID string `json:"ruleId"`
				Level  string `json:"level"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(sarifLog.Bytes(), &log); err != nil || log.Version != "2.1.0" || len(log.Runs[0].Results) != len(l) {
		t.Fatalf("SARIF log malformed: %v %+v", err, log)
	}
	var empty bytes.Buffer
	_ = WriteText(&empty, nil, nil)
	_ = WriteJSON(&empty, nil)
	if empty.String() != "[]\n" {
		t.Errorf("empty list printed %q, want only the JSON []", empty.String())
	}
}

// sampleRule describes a code the way package rules does, for the golden.
func sampleRule(code string) sarif.Rule {
	return sarif.Rule{Short: "Short " + code + ".", Full: "Short " + code + ". And more.", HelpURI: "https://example.test/docs#" + code}
}

func TestFixesPrintInJSONAndKeepDuplicatesApart(t *testing.T) {
	d := Errorf("unknown_state", "unknown state `reveiw`").At("w.yaml", Pos{Line: 3, Column: 9})
	fixed := d.WithFix(Fix{Title: "replace `reveiw` with `review`", File: "w.yaml",
		Span: Span{Start: Pos{Line: 3, Column: 9}, End: Pos{Line: 3, Column: 15}}, NewText: "review"})
	if len(d.Fixes) != 0 {
		t.Fatal("WithFix changed its receiver")
	}
	if got := (List{d, fixed}).Sorted(); len(got) != 2 {
		t.Errorf("a diagnostic with a fix was deduplicated with one without: %v", got)
	}
	var b strings.Builder
	if err := WriteJSON(&b, List{fixed}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"new_text": "review"`) {
		t.Errorf("JSON lacks the fix:\n%s", b.String())
	}
}
