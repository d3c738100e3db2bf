package trace

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"testing"
)

// bytesSource is a suite source reading data.
func bytesSource(name string, data []byte) Source {
	return Source{Name: name, Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }}
}

// fixtureSuite is the fixture transcripts, a refused one and an unreadable
// one, as one suite.
func fixtureSuite(t *testing.T) []Source {
	var sources []Source
	for _, name := range []string{"small.jsonl", "events.jsonl", "codex.jsonl"} {
		sources = append(sources, bytesSource("runs/"+name, readFile(t, filepath.Join("..", "testdata", "trace", "transcripts", name))))
	}
	sources = append(sources, bytesSource("runs/broken.jsonl", []byte("{}\nnot json\n")))
	sources = append(sources, Source{Name: "runs/gone.jsonl", Open: func() (io.ReadCloser, error) {
		return nil, errors.New("cannot read `runs/gone.jsonl`: no such file or directory")
	}})
	return sources
}

// TestSuiteGoldens pins the suite's text, JSON and JUnit layouts, judged
// with more workers than transcripts: the order is the sources'.
func TestSuiteGoldens(t *testing.T) {
	spec := mustSpec(t, readFile(t, "../testdata/trace/specs/codex.trace.yaml"))
	suite, err := CheckSuite(spec, fixtureSuite(t), CheckOptions{}, ReadOptions{}, 8)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		write func(io.Writer) error
	}{{"check-suite.txt", suite.WriteText}, {"check-suite.json", suite.WriteJSON}, {"check-suite.junit.xml", suite.WriteJUnit}} {
		var b bytes.Buffer
		if err := c.write(&b); err != nil {
			t.Fatal(err)
		}
		golden(t, c.name, b.Bytes())
	}
	census := InspectSuite(fixtureSuite(t), ReadOptions{}, 3)
	var b bytes.Buffer
	if err := census.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	golden(t, "inspect-suite.txt", b.Bytes())
	if err := census.WriteJUnit(&b); err == nil {
		t.Error("an inspected suite wrote JUnit")
	}
}

// TestSuiteVerdicts: the suite's verdict and exit code are the worst
// transcript's (refused, then gap, then unknown, then ok), and a bad
// --advisory id fails the whole suite.
func TestSuiteVerdicts(t *testing.T) {
	spec := mustSpec(t, []byte(okHeader+"- {id: turns, expect: {turns: {count: {exactly: 1}}}}\n"))
	ok := []byte(`{"type":"result","num_turns":1}` + "\n")
	gap := []byte(`{"type":"result","num_turns":2}` + "\n")
	unk := []byte(`{"type":"system","subtype":"init"}` + "\n")
	bad := []byte("nope\n")
	for _, c := range []struct {
		name    string
		data    [][]byte
		verdict string
		code    int
	}{
		{"all ok", [][]byte{ok, ok}, VerdictOK, 0},
		{"one unknown", [][]byte{ok, unk, ok}, VerdictUnknown, 3},
		{"gap beats unknown", [][]byte{unk, gap, ok}, VerdictGap, 1},
		{"refused beats gap", [][]byte{gap, bad}, VerdictRefused, 1},
	} {
		var sources []Source
		for i, d := range c.data {
			sources = append(sources, bytesSource(fmt.Sprintf("t%d", i), d))
		}
		suite, err := CheckSuite(spec, sources, CheckOptions{}, ReadOptions{}, 2)
		if err != nil {
			t.Fatal(err)
		}
		if suite.Verdict() != c.verdict || suite.ExitCode() != c.code {
			t.Errorf("%s: verdict %s exit %d, want %s %d", c.name, suite.Verdict(), suite.ExitCode(), c.verdict, c.code)
		}
		for i := range suite.Transcripts {
			if suite.Transcripts[i].Name != sources[i].Name {
				t.Errorf("%s: transcript %d is %s", c.name, i, suite.Transcripts[i].Name)
			}
		}
	}
	if _, err := CheckSuite(spec, nil, CheckOptions{Advisory: []string{"nope"}}, ReadOptions{}, 1); err == nil {
		t.Error("an undeclared advisory id was accepted")
	}
}

// BenchmarkCheckSuite1000 judges a suite of 1,000 generated transcripts
// (stream-json and event streams of 20 to 80 tool calls, generated here,
// never committed) against genSpec, on every core.
func BenchmarkCheckSuite1000(b *testing.B) {
	spec := mustSpec(b, []byte(genSpec))
	sources := make([]Source, 1000)
	total := 0
	for i := range sources {
		data := genStreamJSON(20+i%61, 500)
		if i%2 == 1 {
			data = genEventStream(20+i%61, 500)
		}
		total += len(data)
		sources[i] = bytesSource(fmt.Sprintf("runs/%04d.jsonl", i), data)
	}
	b.ReportAllocs()
	b.SetBytes(int64(total))
	for b.Loop() {
		suite, err := CheckSuite(spec, sources, CheckOptions{}, ReadOptions{}, 0)
		if err != nil || len(suite.Transcripts) != 1000 || suite.Verdict() == VerdictRefused {
			b.Fatal(err, suite.Verdict())
		}
	}
}

// TestJUnitHostileText: notes quoting control characters, XML syntax and
// non-characters from a transcript still make a document an XML reader
// parses, with every case present.
func TestJUnitHostileText(t *testing.T) {
	spec := mustSpec(t, []byte(okHeader+"- {id: a, expect: {tool.absent: {tool: Bash, args: {command: {contains: x}}}}}\n- {id: b, expect: {turns: {count: {at_most: 0}}}}\n"))
	run := []byte(`{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t","name":"Bash","input":{"command":"x \u0001\u0008 ]]> </failure> & \"q\" \ufffe \ud800"}}]}}` + "\n" + `{"type":"result","num_turns":1}` + "\n")
	suite, err := CheckSuite(spec, []Source{bytesSource("a&<b>\".jsonl", run)}, CheckOptions{}, ReadOptions{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := suite.WriteJUnit(&b); err != nil {
		t.Fatal(err)
	}
	var doc junitSuites
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if len(doc.Suites) != 1 || doc.Suites[0].Name != "a&<b>\".jsonl" || len(doc.Suites[0].Cases) != 2 || doc.Suites[0].Cases[0].Failure == nil || doc.Failures != 2 {
		t.Fatalf("parsed %+v", doc)
	}
}
