package trace

import (
	"os"
	"testing"

	"github.com/aepflow/aepflow/internal/testkit"
)

// checkIR asserts the IR invariants every reader must keep.
func checkIR(t *testing.T, ir *IR) {
	for i, e := range ir.Events {
		if e.Index != i || e.SourceLine < 1 {
			t.Fatalf("event %d: index %d line %d", i, e.Index, e.SourceLine)
		}
		if e.Family == FamilyToolCall && e.Call.ResultEvent != nil {
			r := *e.Call.ResultEvent
			if r < 0 || r >= len(ir.Events) || ir.Events[r].Family != FamilyToolResult {
				t.Fatalf("call %d correlates with %d", i, r)
			}
		}
	}
	if len(ir.TranscriptDigest) != 64 {
		t.Fatalf("digest %q", ir.TranscriptDigest)
	}
	_ = NewCensus(ir)
}

// FuzzReadStreamJSON: the stream-json reader never panics and keeps its invariants.
func FuzzReadStreamJSON(f *testing.F) {
	testkit.Seed(f, "testdata/transcripts/small.jsonl")
	f.Add([]byte("{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"tool_use\",\"name\":1}]}}\n"))
	f.Add([]byte("{\"type\":\"user\",\"isSynthetic\":true,\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"x\"}]}}\n\xff"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ir, adapter, refusals := Read(data)
		if (ir == nil) == (len(refusals) == 0) {
			t.Fatalf("ir %v with %d refusals", ir != nil, len(refusals))
		}
		if adapter.Name == "" {
			t.Fatal("no adapter")
		}
		if ir != nil {
			checkIR(t, ir)
		}
	})
}

// FuzzReadEventStream: the metaharness.event/1 reader never panics and keeps its invariants.
func FuzzReadEventStream(f *testing.F) {
	testkit.Seed(f, "testdata/transcripts/events.jsonl")
	f.Add([]byte("{\"format\":\"metaharness.event/1\",\"event\":\"session.started\",\"hermetic\":{\"stream_complete\":true}}\n"))
	f.Add([]byte("{\"format\":\"metaharness.event/1\",\"event\":\"usage\",\"usage\":[]}\n{\"format\":\"metaharness.event/1\",\"event\":\"stream.closed\"}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ir, _, refusals := Read(data)
		if (ir == nil) == (len(refusals) == 0) {
			t.Fatalf("ir %v with %d refusals", ir != nil, len(refusals))
		}
		if ir != nil {
			checkIR(t, ir)
		}
	})
}

// FuzzReadSpec: the spec reader never panics; an accepted spec has a digest
// and checks without panicking against a fixture transcript.
func FuzzReadSpec(f *testing.F) {
	testkit.Seed(f, "testdata/specs/*.yaml")
	f.Add([]byte("format: trace-spec/1\nid: a\nexpectations:\n- {id: a, expect: {text.matches: {regex: \"(\"}}}\n"))
	f.Add([]byte("a: &a [*a]\n"))
	small, err := os.ReadFile("testdata/transcripts/small.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	ir, _, _ := Read(small)
	f.Fuzz(func(t *testing.T, data []byte) {
		spec, refusals := ReadSpec(data)
		if (spec == nil) == (len(refusals) == 0) {
			t.Fatalf("spec %v with %d refusals", spec != nil, len(refusals))
		}
		if spec == nil {
			return
		}
		if len(spec.Digest) != 64 {
			t.Fatalf("digest %q", spec.Digest)
		}
		if _, err := Check(spec, ir, CheckOptions{}); err != nil {
			t.Fatal(err)
		}
	})
}
