package flow

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// specPlanText is flow-format.md §4.2, the plan of the §1.4 example.
const specPlanText = `demo
  root
    1. specify
    2. implement-to-verify
    root.implement-to-verify (repeat: max 2)
      1. implement
      2. verify
      root.implement-to-verify.implement
        1. implement-1
      root.implement-to-verify.verify
        1. verify-1
    root.specify
      1. specify-1
`

func planFile(t *testing.T, file string, maxAttempts int) *Plan {
	t.Helper()
	d, ds := CheckFile(file, CheckOptions{MaxAttempts: maxAttempts})
	if ds.HasErrors() {
		t.Fatalf("%s refused: %v", file, ds.Err())
	}
	p, ds := NewPlan(d, maxAttempts)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	return p
}

func TestPlanSpecExample(t *testing.T) {
	var b bytes.Buffer
	if err := planFile(t, "testdata/plan/demo.yaml", 0).WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if b.String() != specPlanText {
		t.Errorf("got\n%s\nwant\n%s", b.String(), specPlanText)
	}
}

// TestPlanGolden pins the text and JSON plans of every testdata/plan file,
// with and without --max-attempts.
func TestPlanGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/plan/*.*")
	for _, file := range files {
		if strings.HasSuffix(file, ".txt") || strings.HasSuffix(file, ".jsonl") {
			continue
		}
		for _, n := range []int{0, 3} {
			var b bytes.Buffer
			p := planFile(t, file, n)
			if err := p.WriteText(&b); err != nil {
				t.Fatal(err)
			}
			if err := p.WriteJSON(&b); err != nil {
				t.Fatal(err)
			}
			name := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
			if n > 0 {
				name += ".max3"
			}
			golden(t, filepath.Join("plan", name+".txt"), b.Bytes())
		}
	}
}

func TestPlanCycleOnUncheckedDocument(t *testing.T) {
	d := doc("c", step("a", ns("b"), nil), step("b", ns("a"), nil), step("c", nil, nil))
	_, ds := NewPlan(d, 0)
	if len(ds) != 1 || ds[0].Code != "flow_cycle" || !strings.Contains(ds[0].Message, "`a -> b`") {
		t.Errorf("got %v", ds)
	}
}

func TestWriteRefusedJSON(t *testing.T) {
	_, ds := CheckBytes("x.yaml", []byte("id: d\nroot: {id: root, nodes: [{id: x, needs: [x]}]}\n"), CheckOptions{})
	var b bytes.Buffer
	if err := WriteRefusedJSON(&b, ds); err != nil {
		t.Fatal(err)
	}
	want := "{\"kind\":\"refused\",\"reason\":\"`root.x` needs itself\",\"code\":\"flow_self_need\"}\n"
	if b.String() != want {
		t.Errorf("got %s want %s", b.String(), want)
	}
}

// TestPlanTextEscapesFlowID: the top-level id is any non-blank string, so
// a line break in it printed plan lines of its own (`x` then `  root`
// forged above the real plan) and an escape sequence reached the
// terminal. It is escaped as every text line aepflow prints; the JSON
// plan carries it as it is.
func TestPlanTextEscapesFlowID(t *testing.T) {
	src := "{\"id\":\"x\\n  root\\u001b[31m\\u202e\",\"root\":{\"id\":\"root\",\"nodes\":[{\"id\":\"a\",\"run\":{\"prompt\":\"p\"}}]}}"
	d, ds := CheckBytes("esc.json", []byte(src), CheckOptions{})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	p, _ := NewPlan(d, 0)
	var b bytes.Buffer
	if err := p.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if want := "x\\x0a  root\\x1b[31m\\u202e\n  root\n    1. a\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
	b.Reset()
	if err := p.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"flow":"x\n  root\u001b[31m`+"\u202e"+`"`) {
		t.Errorf("the JSON plan changed the id: %s", b.String())
	}
}
