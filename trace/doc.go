// Package trace reads agent transcripts and judges them against trace
// specifications (trace.md).
//
// The pipeline runs one way: transcript bytes stream through an adapter
// (Claude Code stream-json, metaharness.event/1 or a Codex rollout, chosen
// from the first non-blank line) into the IR, a compact, typed, indexed list
// of events with call/result correlation, steps, requests and a closure
// witness, built in one pass (ReadStream; Read for bytes in memory). Census
// summarises an IR for `aepflow trace inspect`. ReadSpec reads and validates
// a `trace-spec/1` document and computes its digest. Check evaluates every
// expectation of a spec against an IR with three-valued outcomes that cite
// event indices, and NewEvidence turns the resulting Report into a
// trace_conformance record. CheckSuite and InspectSuite judge many
// transcripts in parallel; a Suite prints as text, JSON or JUnit XML.
//
// The package opens no file (a Source's Open is the caller's) and holds no
// clock: checking is deterministic, and the only time it reads is the one a
// caller passes to NewEvidence. It is not a transcript recorder. It imports
// no engine package; the engine may import its types.
package trace
