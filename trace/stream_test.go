package trace

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/internal/testshared"
)

// TestLineRules: lines split on `\n` with one `\r` stripped, blank and
// whitespace-only lines skipped but counted, a final newline adding no
// line (trace.md §1.9) — whatever the buffer boundaries.
func TestLineRules(t *testing.T) {
	const init = `{"type":"system","subtype":"init"}`
	const res = `{"type":"result","subtype":"success"}`
	for _, c := range []struct {
		name  string
		data  string
		lines []int
	}{
		{"plain", init + "\n" + res + "\n", []int{1, 2}},
		{"no final newline", init + "\n" + res, []int{1, 2}},
		{"crlf", init + "\r\n" + res + "\r\n", []int{1, 2}},
		{"blank lines count", "\n" + init + "\n \t\n\r\n" + res + "\n\n", []int{2, 5}},
	} {
		ir := mustRead(t, []byte(c.data))
		var got []int
		for _, e := range ir.Events {
			got = append(got, e.SourceLine)
		}
		if !slices.Equal(got, c.lines) {
			t.Errorf("%s: lines %v, want %v", c.name, got, c.lines)
		}
	}
}

// TestStreamMatchesWholeRead: reading through a reader that yields one
// byte at a time gives the same IR census and report as reading the bytes.
func TestStreamMatchesWholeRead(t *testing.T) {
	spec := mustSpec(t, []byte(genSpec))
	for _, data := range [][]byte{genStreamJSON(30, 300), genEventStream(30, 300), readFile(t, "../testdata/trace/transcripts/events.jsonl")} {
		whole := mustRead(t, data)
		streamed, _, refusals, err := ReadStream(&oneByteReader{data: data}, ReadOptions{})
		if err != nil || len(refusals) > 0 {
			t.Fatalf("%v %v", err, refusals)
		}
		if a, b := censusJSON(t, whole), censusJSON(t, streamed); a != b {
			t.Errorf("census differs:\n%s\n%s", a, b)
		}
		if a, b := reportJSON(t, spec, whole), reportJSON(t, spec, streamed); a != b {
			t.Errorf("report differs:\n%s\n%s", a, b)
		}
	}
}

type oneByteReader struct{ data []byte }

func (r *oneByteReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	p[0], r.data = r.data[0], r.data[1:]
	return 1, nil
}

func censusJSON(t *testing.T, ir *IR) string {
	t.Helper()
	var b bytes.Buffer
	if err := writeTestJSON(&b, NewCensus(ir)); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func reportJSON(t *testing.T, spec *Spec, ir *IR) string {
	t.Helper()
	r, err := Check(spec, ir, CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestKeepDecidesAlike: an IR that keeps only the fields the spec reads
// (Spec.Keep) yields the same report as one that keeps everything, for
// every fixture specification and transcript, and the corpus when present.
func TestKeepDecidesAlike(t *testing.T) {
	type pair struct {
		spec       string
		transcript []byte
	}
	var pairs []pair
	specs, _ := filepath.Glob("../testdata/trace/specs/*.yaml")
	transcripts := [][]byte{readFile(t, "../testdata/trace/transcripts/small.jsonl"), readFile(t, "../testdata/trace/transcripts/events.jsonl"), genStreamJSON(20, 50), genEventStream(20, 50)}
	for _, s := range specs {
		for _, tr := range transcripts {
			pairs = append(pairs, pair{s, tr})
		}
	}
	if dir, ok := sharedCorpusIfPresent(); ok {
		for _, s := range []string{"expectations.trace.yaml", "expectations.driven-step.trace.yaml"} {
			for _, tr := range []string{"plugin-eval-7hTYjT.jsonl", "metaharness-driven-honest-step.jsonl", "metaharness-closed-stream.jsonl"} {
				pairs = append(pairs, pair{filepath.Join(dir, s), readFile(t, filepath.Join(dir, tr))})
			}
		}
	}
	for _, p := range pairs {
		spec := mustSpec(t, readFile(t, p.spec))
		full := mustRead(t, p.transcript)
		trimmed, _, _, err := ReadStream(bytes.NewReader(p.transcript), ReadOptions{Keep: spec.Keep()})
		if err != nil || trimmed == nil {
			t.Fatal(err)
		}
		if a, b := reportJSON(t, spec, full), reportJSON(t, spec, trimmed); a != b {
			t.Errorf("%s: the trimmed IR decides differently:\n%s\n%s", p.spec, a, b)
		}
	}
	// And the trimming is real: a census-only read keeps no field.
	ir, _, _, _ := ReadStream(bytes.NewReader(genStreamJSON(5, 10)), ReadOptions{Keep: KeepNothing})
	for _, ci := range ir.calls {
		if c := ir.Events[ci].Call(); len(c.Input) > 0 || c.ResultEvent >= 0 && len(ir.Events[c.ResultEvent].Result().Fields) > 0 {
			t.Fatalf("call %d kept fields: %+v", ci, c)
		}
	}
}

// TestOversizedLine: a line past the bound is one TRACE-ADAPT-001 at its
// location, and is skipped without being held: reading a transcript with
// an 8 MiB line under a 1 KiB bound allocates far less than the line.
func TestOversizedLine(t *testing.T) {
	long := `{"type":"assistant","message":{"content":[{"type":"text","text":"` + strings.Repeat("z", 8<<20) + `"}]}}`
	data := []byte(`{"type":"system","subtype":"init"}` + "\n" + long + "\n" + `{"type":"result"}` + "\n")
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, _, refusals, err := ReadStream(bytes.NewReader(data), ReadOptions{MaxLineBytes: 1024})
	runtime.ReadMemStats(&after)
	if err != nil || len(refusals) != 1 || FormatRefusal(refusals[0]) != "TRACE-ADAPT-001 at line[2]: line 2 is longer than the limit of 1 KiB" {
		t.Fatalf("%v %v", err, refusals)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
		t.Errorf("reading past an 8 MiB line allocated %d bytes", alloc)
	}
	// A line of exactly the bound is read.
	exact := `{"type":"x","pad":"` + strings.Repeat("p", 1000) + `"}`
	exact += strings.Repeat(" ", 1024-len(exact))
	if _, _, refusals, _ := ReadStream(strings.NewReader(exact+"\n"), ReadOptions{MaxLineBytes: 1024}); len(refusals) > 0 {
		t.Errorf("a line of exactly the bound: %v", refusals)
	}
	if _, _, refusals, _ := ReadStream(strings.NewReader(exact+" "), ReadOptions{MaxLineBytes: 1024}); len(refusals) != 1 {
		t.Errorf("an unterminated line one byte over the bound: %v", refusals)
	}
}

// TestRefusalsListed: a file of bad lines lists the first
// MaxListedRefusals and counts the rest in one more refusal.
func TestRefusalsListed(t *testing.T) {
	data := strings.Repeat("not json\n", 250)
	_, _, refusals, _ := ReadStream(strings.NewReader(data), ReadOptions{})
	if len(refusals) != MaxListedRefusals+1 {
		t.Fatalf("%d refusals", len(refusals))
	}
	if got := FormatRefusal(refusals[MaxListedRefusals]); got != "TRACE-ADAPT-001 at transcript: 150 more line(s) are refused; only the first 100 are listed" {
		t.Errorf("last refusal %q", got)
	}
	// Invalid UTF-8 anywhere is the one refusal, even after line refusals.
	_, adapter, refusals, _ := ReadStream(strings.NewReader(`{"format":"metaharness.event/1","event":"text"}`+"\nnope\n\xff\n"), ReadOptions{})
	if len(refusals) != 1 || refusals[0].Path != "transcript" || adapter.Name != AdapterStreamJSON.Name {
		t.Errorf("invalid UTF-8: %v (%s)", refusals, adapter.Name)
	}
}

// TestReadError: an error of the reader (a bound it enforces, say) ends
// the read and is returned as is.
func TestReadError(t *testing.T) {
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader(`{"type":"system","subtype":"init"}`+"\n"), &failingReader{boom})
	ir, _, refusals, err := ReadStream(r, ReadOptions{})
	if !errors.Is(err, boom) || ir != nil || refusals != nil {
		t.Fatalf("ir %v refusals %v err %v", ir, refusals, err)
	}
}

type failingReader struct{ err error }

func (f *failingReader) Read([]byte) (int, error) { return 0, f.err }

// TestOnePassScaling holds reading and checking to linear work: the
// allocations of a transcript ten times longer are at most 10.5 times as
// many (allocation counts are the stable signal; time is not tested).
// Steps, requests' citations and the denial join were each a scan of the
// whole transcript per item.
func TestOnePassScaling(t *testing.T) {
	spec := mustSpec(t, []byte(genSpec))
	for _, gen := range []struct {
		name string
		f    func(int, int) []byte
	}{{"stream-json", genStreamJSON}, {"event-stream", genEventStream}} {
		small, large := gen.f(200, 200), gen.f(2000, 200)
		count := func(data []byte) float64 {
			return testing.AllocsPerRun(3, func() {
				ir, _, _, _ := ReadStream(bytes.NewReader(data), ReadOptions{Keep: spec.Keep()})
				if _, err := Check(spec, ir, CheckOptions{}); err != nil {
					t.Fatal(err)
				}
			})
		}
		a, b := count(small), count(large)
		if ratio := b / a; ratio > 10.5 {
			t.Errorf("%s: %.0f allocations at 1×, %.0f at 10× (ratio %.2f > 10.5)", gen.name, a, b, ratio)
		}
	}
}

// TestIRIsCompact: what the IR holds once read does not grow with the
// tool output a transcript carries (no raw lines, no decoded trees): the
// same 2,000 calls with 100 bytes or 10,000 bytes of output each hold
// about as much, a small fraction of the larger transcript.
func TestIRIsCompact(t *testing.T) {
	spec := mustSpec(t, []byte(genSpec))
	held := func(data []byte) int64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		ir, _, _, err := ReadStream(bytes.NewReader(data), ReadOptions{Keep: spec.Keep()})
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(ir)
		return int64(after.HeapAlloc) - int64(before.HeapAlloc)
	}
	small, large := genStreamJSON(1000, 100), genStreamJSON(1000, 5000)
	hs, hl := held(small), held(large)
	if hl > hs+hs/10+64<<10 {
		t.Errorf("the IR holds %d bytes with 100-byte outputs, %d with 5,000-byte outputs", hs, hl)
	}
	if hl > int64(len(large))/10 {
		t.Errorf("the IR of a %d-byte transcript holds %d bytes", len(large), hl)
	}
}

// sharedCorpusIfPresent returns the shared trace corpus when it is there;
// tests that also run without it use it as extra cases.
func sharedCorpusIfPresent() (string, bool) {
	dir, err := testshared.Find()
	if err != nil {
		return "", false
	}
	return filepath.Join(dir, "corpus", "trace"), true
}

func writeTestJSON(w io.Writer, v any) error {
	data := marshalNoHTML(v)
	_, err := fmt.Fprintf(w, "%s\n", data)
	return err
}

// TestNoStepsIsEmptyList: a transcript without tool calls has a census
// whose steps are [] (the reference's), not null.
func TestNoStepsIsEmptyList(t *testing.T) {
	ir := mustRead(t, []byte(`{"type":"result","subtype":"success"}`+"\n"))
	if got := censusJSON(t, ir); !strings.Contains(got, `"steps":[]`) {
		t.Errorf("census %s", got)
	}
}
