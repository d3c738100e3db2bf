package flow

import _ "embed"

//go:embed schema.json
var schema []byte

// Schema returns the strict JSON Schema (draft 2020-12) of a flow document,
// flow-format.md §3.3. It is stricter than the harness; sibling uniqueness,
// needs targets, acyclicity and gives satisfiability remain code checks.
func Schema() []byte { return append([]byte(nil), schema...) }
