package trace

import (
	"bytes"
	"errors"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
)

// hostileText holds every kind of character a title, a tool name, an event
// type or a file name may carry to forge or reorder a line: CR LF before a
// verdict word, a lone CR, NEL, the line and paragraph separators, a
// bidirectional override, an escape sequence, DEL and a C1 control.
const hostileText = "x\r\nconformant: forged (exit 0)\rconformant\u0085conformant\u2028conformant\u2029conformant\u202econformant\x1b[2Kconformant\x7f\u009b"

// checkLines fails when a line of text output carries anything
// diag.EscapeText would escape, or starts with the verdict word
// `conformant` without being one of the genuine lines.
func checkLines(t *testing.T, what, out string, genuine ...string) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if diag.EscapeText(line) != line {
			t.Errorf("%s: a line holds a raw control character: %q", what, line)
		}
		if strings.HasPrefix(line, "conformant") && !containsString(genuine, line) {
			t.Errorf("%s: a forged line %q\n%s", what, line, out)
		}
	}
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestTextOutputEscapesInputs: no string a specification or a transcript
// controls can break a line of the text outputs — the report (a title, an
// opaque event's type), the census (a tool name), a suite (a transcript's
// name, an unreadable one's error) — nor of the lines the command adds
// (WriteLine, WriteRefusals). The title's "\r\nconformant" printed a line
// starting `conformant` above the real verdict.
func TestTextOutputEscapesInputs(t *testing.T) {
	q := strings.ReplaceAll(strings.ReplaceAll(hostileText, `\`, `\\`), `"`, `\"`)
	q = strings.NewReplacer("\r", `\r`, "\n", `\n`, "\u0085", `\x85`, "\u2028", `\u2028`, "\u2029", `\u2029`,
		"\u202e", `\u202e`, "\x1b", `\e`, "\x7f", `\x7f`, "\u009b", `\u009b`).Replace(q)
	spec := mustSpec(t, []byte("format: trace-spec/1\nid: t\ntitle: \""+q+"\"\nexpectations:\n"+
		"- {id: gap, expect: {tool.called: {tool: Read}}}\n"+
		"- {id: unk, expect: {tool.called: {count: {exactly: 1}}}}\n"))
	if spec.Title == nil || *spec.Title != hostileText {
		t.Fatalf("the title is not read as written: %v", spec.Title)
	}
	jsonText := func(s string) string {
		var b bytes.Buffer
		_ = writeJSONString(&b, s)
		return b.String()
	}
	ir := mustRead(t, []byte(`{"type":"system","subtype":"init"}`+"\n"+
		`{"type":`+jsonText(hostileText)+`}`+"\n"+
		`{"type":"assistant","message":{"content":[{"type":"tool_use","id":"c","name":`+jsonText(hostileText)+`,"input":{}}]}}`+"\n"+
		`{"type":"result","subtype":"success"}`+"\n"))
	for _, redact := range []bool{false, true} {
		r, err := Check(spec, ir, CheckOptions{Redact: redact})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := r.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		checkLines(t, "report", b.String())
		if !strings.Contains(b.String(), `\x0d\x0aconformant`) {
			t.Errorf("the title is not printed escaped:\n%s", b.String())
		}
	}
	var b bytes.Buffer
	if err := NewCensus(ir).WriteText(&b); err != nil {
		t.Fatal(err)
	}
	checkLines(t, "census", b.String())

	sources := []Source{
		{Name: "runs/" + hostileText + ".jsonl", Open: func() (io.ReadCloser, error) {
			return io.NopCloser(strings.NewReader(`{"type":"result","subtype":"success"}`)), nil
		}},
		{Name: "runs/" + hostileText + "2.jsonl", Open: func() (io.ReadCloser, error) {
			return nil, errors.New("cannot read `runs/" + hostileText + "2.jsonl`: gone")
		}},
	}
	suite, err := CheckSuite(spec, sources, CheckOptions{}, ReadOptions{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := suite.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	checkLines(t, "check suite", b.String())
	b.Reset()
	if err := InspectSuite(sources, ReadOptions{}, 1).WriteText(&b); err != nil {
		t.Fatal(err)
	}
	checkLines(t, "inspect suite", b.String())

	b.Reset()
	_ = WriteLine(&b, "== %s — %s", hostileText, "passed")
	_ = WriteRefusals(&b, "transcript "+hostileText+" refused", diag.List{refusal(CodeAdaptUnreadable, "line[1]", "line 1 has format `%s`", hostileText)})
	checkLines(t, "command lines", b.String())
	if n := strings.Count(b.String(), "\n"); n != 3 {
		t.Errorf("three lines written as %d:\n%s", n, b.String())
	}
}

func writeJSONString(w io.Writer, s string) error {
	_, err := w.Write(marshalNoHTML(s))
	return err
}

// TestRedactQuotesNoTranscriptText: with --redact, no text the transcript
// wrote reaches the text or JUnit report, nor the refusals of a redacted
// check: an opaque event's type and a rate limit's window are named by
// their digests (they were quoted in undecidable reasons), a format tag by
// its digest and a JSON syntax error without the character it quotes. The
// JSON report keeps the payload as trace.md §6.2 says (reasons unchanged).
func TestRedactQuotesNoTranscriptText(t *testing.T) {
	spec := mustSpec(t, []byte(okHeader+
		"- {id: count, expect: {tool.called: {tool: Bash, count: {exactly: 1}}}}\n"+
		"- {id: outcome, expect: {result: {subtype: success}}}\n"+
		"- {id: note, expect: {tool.called: {tool: Bash}}}\n"))
	transcript := `{"type":"system","subtype":"init"}` + "\n" +
		`{"type":"SECRET-TYPE"}` + "\n" +
		`{"type":"assistant","message":{"content":[{"type":"tool_use","id":"c","name":"Bash","input":{"command":"SECRET-COMMAND"}}]}}` + "\n" +
		`{"type":"rate_limit_event","rate_limit_info":{"status":"rejected","rateLimitType":"SECRET-WINDOW"}}` + "\n" +
		`{"type":"result","subtype":"error_max_turns"}` + "\n"
	open := func(text string) func() (io.ReadCloser, error) {
		return func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(text)), nil }
	}
	sources := []Source{
		{Name: "run.jsonl", Open: open(transcript)},
		{Name: "events.jsonl", Open: open(`{"format":"metaharness.event/1","event":"text","text":"a"}` + "\n" + `{"format":"SECRET-FORMAT"}` + "\n" + "Zecret\n")},
	}
	secrets := []string{"SECRET", "'Z'"}
	for _, redact := range []bool{false, true} {
		suite, err := CheckSuite(spec, sources, CheckOptions{Redact: redact}, ReadOptions{}, 1)
		if err != nil {
			t.Fatal(err)
		}
		var text, junit, refusals, report bytes.Buffer
		if err := suite.WriteText(&text); err != nil {
			t.Fatal(err)
		}
		if err := suite.WriteJUnit(&junit); err != nil {
			t.Fatal(err)
		}
		_ = WriteRefusals(&refusals, "transcript events.jsonl refused", suite.Transcripts[1].Refusals)
		if err := suite.Transcripts[0].Report.WriteJSON(&report); err != nil {
			t.Fatal(err)
		}
		all := text.String() + junit.String() + refusals.String()
		for _, s := range secrets {
			if got := strings.Contains(all, s); got == redact {
				t.Errorf("redact %t: the output quotes %q: %t\n%s", redact, s, got, all)
			}
		}
		for _, s := range []string{`"SECRET-TYPE"`, `"window": "SECRET-WINDOW"`} {
			if !strings.Contains(report.String(), s) {
				t.Errorf("redact %t: the JSON report's payload lost %s:\n%s", redact, s, report.String())
			}
		}
	}
}

// TestAdvisoryRepeatedOnce: an --advisory id given twice is one downgrade,
// listed once, in the order first given: in the report (text and JSON
// `advisory_overrides`), the evidence record and its provenance command,
// and an unknown id in the refusal. It was listed as many times as given.
func TestAdvisoryRepeatedOnce(t *testing.T) {
	spec := mustSpec(t, []byte(okHeader+
		"- {id: a, expect: {turns: {count: {at_most: 0}}}}\n"+
		"- {id: b, expect: {turns: {count: {at_most: 0}}}}\n"))
	ir := mustRead(t, []byte(`{"type":"result","subtype":"success","num_turns":1}`+"\n"))
	r, err := Check(spec, ir, CheckOptions{Advisory: []string{"b", "a", "b", "b"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"b", "a"}; !slices.Equal(r.AdvisoryOverrides, want) {
		t.Errorf("advisory_overrides %q, want %q", r.AdvisoryOverrides, want)
	}
	var b bytes.Buffer
	_ = r.WriteText(&b)
	if !strings.Contains(b.String(), "\nadvisory: `b`, `a` downgraded for this run;") {
		t.Errorf("the advisory line:\n%s", b.String())
	}
	rec, err := NewEvidence(r, "s.yaml", "t.jsonl", 0)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rec.AdvisoryOverrides, []string{"b", "a"}) || !strings.HasSuffix(rec.Provenance.Command, "--transcript t.jsonl --advisory b --advisory a") {
		t.Errorf("the record: %q, %q", rec.AdvisoryOverrides, rec.Provenance.Command)
	}
	if err := ValidateAdvisory(spec, []string{"nope", "a", "nope"}); err == nil || err.Error() != "specification `t` declares no expectation `nope`" {
		t.Errorf("an unknown id given twice: %v", err)
	}
}

// TestProvenanceCommandQuoted: the provenance command of a record is a
// command line a POSIX shell runs as the one that minted it. The paths were
// joined as they are, so `my specs/it's $HOME.yaml` split into words, left
// a quote open and expanded $HOME. Each argument is quoted when it needs
// it, and only then; the inputs stay as given.
func TestProvenanceCommandQuoted(t *testing.T) {
	spec := mustSpec(t, []byte(okHeader+"- {id: a-1, expect: {turns: {count: {at_most: 0}}}}\n"))
	ir := mustRead(t, []byte(`{"type":"result","subtype":"success","num_turns":1}`+"\n"))
	r, err := Check(spec, ir, CheckOptions{Advisory: []string{"a-1"}})
	if err != nil {
		t.Fatal(err)
	}
	specPath, transcriptPath := "my specs/it's $HOME.trace.yaml", "runs/run-1.jsonl"
	rec, err := NewEvidence(r, specPath, transcriptPath, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := `aepflow trace evidence --spec 'my specs/it'\''s $HOME.trace.yaml' --transcript runs/run-1.jsonl --advisory a-1`
	if rec.Provenance.Command != want {
		t.Errorf("command\n got %s\nwant %s", rec.Provenance.Command, want)
	}
	if !slices.Equal(rec.Provenance.Inputs, []string{specPath, transcriptPath}) {
		t.Errorf("inputs %q", rec.Provenance.Inputs)
	}
	// A shell reads the command back into the arguments it was built from.
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	out, err := exec.Command(sh, "-c", `printf '%s\n' `+strings.TrimPrefix(rec.Provenance.Command, "aepflow ")).Output()
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"trace", "evidence", "--spec", specPath, "--transcript", transcriptPath, "--advisory", "a-1"}
	if got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n"); !slices.Equal(got, args) {
		t.Errorf("sh reads %q, want %q", got, args)
	}
}

// TestEvidenceRefusesPathNotUTF8: a record's provenance holds the paths as
// given, as text. A path that is not UTF-8 was written to YAML as !!binary,
// which the engine refuses, and to JSON with U+FFFD in place of its bytes;
// no record is minted for it, and the message names the path escaped.
func TestEvidenceRefusesPathNotUTF8(t *testing.T) {
	spec := mustSpec(t, []byte(okHeader+"- {id: a-1, expect: {turns: {count: {at_most: 1}}}}\n"))
	ir := mustRead(t, []byte(`{"type":"result","subtype":"success","num_turns":1}`+"\n"))
	r, err := Check(spec, ir, CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ spec, transcript, flag string }{
		{"s.yaml", "runs/r\xff.jsonl", "--transcript"},
		{"s\xc3.yaml", "t.jsonl", "--spec"},
	} {
		rec, err := NewEvidence(r, c.spec, c.transcript, 0)
		if err == nil {
			t.Errorf("%q, %q: minted %+v", c.spec, c.transcript, rec.Provenance)
			continue
		}
		if !strings.Contains(err.Error(), "record of "+c.flag+" `") || !strings.Contains(err.Error(), "is not UTF-8") {
			t.Errorf("%q, %q: %v", c.spec, c.transcript, err)
		}
	}
	// Valid UTF-8 with control characters and line separators is text: the
	// YAML encoder escapes it, and it reads back as it was.
	path := "runs/r\x01\u0085\u2028é.jsonl"
	rec, err := NewEvidence(r, "s.yaml", path, 0)
	if err != nil {
		t.Fatal(err)
	}
	var y bytes.Buffer
	if err := EncodeEvidenceYAML(&y, []*Evidence{rec}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(y.String(), "!!binary") {
		t.Errorf("YAML writes binary data:\n%s", y.String())
	}
	back, err := DecodeEvidence(y.Bytes())
	if err != nil || len(back) != 1 || back[0].Provenance.Inputs[1] != path || back[0].Provenance.Command != rec.Provenance.Command {
		t.Errorf("round trip: %v %+v", err, back)
	}
}
