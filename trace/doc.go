// Package trace reads agent transcripts and judges them against trace
// specifications (trace.md).
//
// The pipeline runs one way: raw transcript bytes go through an adapter (Claude
// Code stream-json or metaharness.event/1, chosen from the first non-blank
// line) into the IR, a typed, indexed list of events with call/result
// correlation, requests and a closure witness. Census summarises an IR for
// `aepflow trace inspect`. ReadSpec reads and validates a `trace-spec/1`
// document and computes its digest. Check evaluates every expectation of a
// spec against an IR with three-valued outcomes that cite event indices, and
// NewEvidence turns the resulting Report into a trace_conformance record.
//
// The package is not a transcript recorder and holds no clock: checking is
// deterministic, and the only time it reads is the one a caller passes to
// NewEvidence. It imports no engine package; the engine may import its types.
package trace
