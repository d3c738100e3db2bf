// Package flow is the b10x flow document: its model, a strict reader for the
// YAML and JSON forms, the checks the harness applies before a run together
// with the strict checks it silently skips, the plan (layers per group) and a
// writer that produces the exact bytes of the projection.
//
// The reader never decodes into structs: it keeps a generic value tree with
// exact keys, duplicate-key detection, exact integers and positions, because
// encoding/json matches struct fields case-insensitively and keeps the last
// duplicate (flow-format.md §3.1). Checks run in stages as the harness does
// (flow-format.md §2–§3) but report every finding of a stage.
//
// The package does not project workflows (package compiler builds the
// Document) and does not answer the transition hook (package transition); it
// only models, reads, checks, plans and writes flow documents, and the hooks
// file that wires the hook into the harness.
package flow
