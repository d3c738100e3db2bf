// Package evidence reads AEP evidence records and turns them into facts
// (engine.md §2.5, §6.3): evidence documents (a YAML or JSON list of
// records, each with its kind, payload, producer, provenance and an
// `observed_at` that may not lie in the future), the closed payload shape of
// every evidence kind (trace_conformance included, as `aepflow trace
// evidence` mints it), the canonical JSON a snapshot stores them in, and
// each kind's fact projection.
//
// It does not decide whether a record satisfies a requirement (package
// engine matches records against requirements) and it writes nothing.
package evidence
