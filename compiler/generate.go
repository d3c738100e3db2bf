package compiler

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/flow"
	"github.com/aepflow/aepflow/workflow"
)

// Format is the syntax of a generated flow document.
type Format string

const (
	// YAML is the hand-written byte form of projection.md §6.
	YAML Format = "yaml"
	// JSON is the same document as strict JSON, the header in `$comment`.
	JSON Format = "json"
)

// Generate projects w and writes the document in format, then runs the flow
// checker on those very bytes, as the harness would read them
// (flow-format.md §3.2). It returns the bytes only when the projection and the
// check found no error, with the facts of the header (nil when the projection
// failed); the diagnostics hold the projection's warnings and every problem
// found. Callers that need the node tree call Project: Generate lets it go
// before reading the bytes back, so a large document's tree, its bytes and
// their YAML parse are not all in memory at once.
func Generate(w *workflow.Workflow, opts Options, format Format) ([]byte, *Facts, diag.List) {
	proj, ds := Project(w, opts)
	if ds.HasErrors() {
		return nil, nil, ds
	}
	facts := &Facts{}
	*facts = proj.Facts // a copy: a pointer into proj would keep its tree
	ds.Extend(proj.Warnings)
	var buf bytes.Buffer
	var err error
	name := "generated." + string(format)
	switch format {
	case YAML:
		err = flow.WriteYAML(&buf, proj.Facts.Header(), proj.Document)
	case JSON:
		err = flow.WriteJSON(&buf, proj.Facts.Header(), proj.Document)
	default:
		err = fmt.Errorf("unknown format %q (want yaml or json)", format)
	}
	// From here on only the workflow's location is needed: w is not kept
	// alive while a large document is read back.
	location := w.Location()
	if err != nil {
		ds.Add(diag.Errorf("flow_parse_error", "the projected document cannot be written: %v", err).WithPath(location))
		return nil, facts, ds
	}
	proj = nil
	_, checked := flow.CheckBytes(name, buf.Bytes(), flow.CheckOptions{FindingsOnly: true})
	ds = slices.Grow(ds, len(checked)) // one allocation even for thousands of warnings
	for _, d := range checked {
		// The bytes were never a file; the node path says where.
		d.File, d.Pos, d.Related = "", diag.Pos{}, nil
		if d.Path == "" {
			d.Path = location
			d.Message = "the generated document does not read back: " + d.Message
		}
		ds.Add(d)
	}
	if ds.HasErrors() {
		return nil, facts, ds
	}
	return buf.Bytes(), facts, ds
}
