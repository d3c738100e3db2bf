package analysis

import (
	"bytes"
	"encoding/json"
	"io"
	"time"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/tree"
	"github.com/aepflow/aepflow/workflow"
)

// Result is one workflow's findings with the witnesses that confirm its
// overlapping_guards findings.
type Result struct {
	Findings  diag.List
	Witnesses []WitnessOf
}

// AnalyzeWitnessed is Analyze, keeping the witnesses.
func AnalyzeWitnessed(t *tree.Tree, w *workflow.Workflow, opts Options) Result {
	if opts.Now.IsZero() {
		opts.Now = time.Now()
	}
	a := newAnalyzer(t, w, opts)
	a.run()
	return Result{Findings: a.diags, Witnesses: a.witnesses}
}

func findingKey(d diag.Diagnostic) string { return d.Code + "\x00" + d.Location() + "\x00" + d.Message }

// WriteJSON prints ds exactly as diag.WriteJSON does, each
// overlapping_guards object with one more key, `witness`: a scenario
// document (analysis.md §9.4) that replays it.
func WriteJSON(w io.Writer, ds diag.List, witnesses []WitnessOf) error {
	var buf bytes.Buffer
	if err := diag.WriteJSON(&buf, ds); err != nil {
		return err
	}
	if len(witnesses) == 0 {
		_, err := w.Write(buf.Bytes())
		return err
	}
	byKey := map[string]*Witness{}
	for _, wo := range witnesses {
		byKey[findingKey(wo.Finding)] = wo.Witness
	}
	var objs []json.RawMessage
	if err := json.Unmarshal(buf.Bytes(), &objs); err != nil {
		return err
	}
	var out bytes.Buffer
	out.WriteByte('[')
	for i, d := range ds {
		if i > 0 {
			out.WriteByte(',')
		}
		obj := bytes.TrimSpace(objs[i])
		if wit := byKey[findingKey(d)]; wit != nil {
			var enc bytes.Buffer
			e := json.NewEncoder(&enc)
			e.SetEscapeHTML(false)
			if err := e.Encode(wit); err != nil {
				return err
			}
			data := bytes.TrimSpace(enc.Bytes())
			obj = append(append(append(obj[:len(obj)-1:len(obj)-1], `,"witness":`...), data...), '}')
		}
		out.Write(obj)
	}
	out.WriteByte(']')
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, out.Bytes(), "", "  "); err != nil {
		return err
	}
	pretty.WriteByte('\n')
	_, err := w.Write(pretty.Bytes())
	return err
}
