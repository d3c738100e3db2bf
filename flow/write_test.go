package flow

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/aepflow/aepflow/internal/testkit"
)

var update = flag.Bool("update", false, "rewrite golden files")

// golden compares got with testdata/<name>, rewriting it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	testkit.Golden(t, filepath.Join("testdata", name), got, *update)
}

func group(id string, needs []string, repeat int, comment string, nodes ...*Node) *Node {
	return &Node{ID: id, Needs: needs, Repeat: repeat, Comment: comment, Nodes: nodes}
}

func step(id string, needs []string, run *Run) *Node {
	return &Node{ID: id, Needs: needs, Run: run}
}

func ns(ids ...string) []string { return ids }

func strp(s string) *string { return &s }

// summaryState is a state group holding one slot with its summary, as the
// projection builds it without a map.
func summaryState(id string, needs []string, summary string) *Node {
	var run *Run
	if summary != "" {
		run = &Run{State: id, Summary: summary}
	} else {
		run = &Run{State: id}
	}
	return group(id, needs, 0, "", step(id+"-1", nil, run))
}

func doc(id string, nodes ...*Node) *Document {
	return &Document{ID: id, Root: group("root", nil, 0, "", nodes...)}
}

// specDocuments builds the bodies of projection.md §7.1 and §7.3.
func specDocuments() map[string]*Document {
	return map[string]*Document{
		"adp-default": doc("adp/default",
			summaryState("receive", nil, "Take in the request and record what is being asked for, unedited."),
			summaryState("specify", ns("receive"), "State the required behaviour. Anything left only in the prompt cannot be checked later, so this is where an objective becomes something a verifier can disagree with."),
			summaryState("decompose", ns("specify"), "Break the specification into units that can each be implemented and verified on their own."),
			summaryState("establish_verifiers", ns("decompose"), "Write the tests, contracts and checks that will decide whether the work is done — before there is an implementation for them to be shaped around."),
			group("implement-to-review", ns("establish_verifiers"), 3,
				"the retreat: verify -> implement, adversarial_verify -> implement, review -> implement",
				summaryState("implement", nil, "Make the smallest change that satisfies the decomposed unit and its verifiers."),
				summaryState("verify", ns("implement"), "Run the verifiers established earlier against the change."),
				summaryState("adversarial_verify", ns("verify"), "Try to break what the previous state just declared working: mutants, edge cases, property violations, contract drift."),
				summaryState("review", ns("adversarial_verify"), "Judge the change as a whole — intent, fit and risk, not just green checks."),
			),
		),
		"demo-touching": doc("demo/touching",
			summaryState("a", nil, "First."),
			group("b-to-d", ns("a"), 3, "the retreat: c -> b, d -> d",
				summaryState("b", nil, "Second."),
				summaryState("c", ns("b"), "Third."),
				summaryState("d", ns("c"), "Fourth."),
			),
		),
		"demo-dfs": doc("demo/dfs",
			summaryState("a", nil, ""),
			summaryState("b", ns("a"), ""),
			group("d-to-c", ns("b"), 3, "the retreat: c -> d",
				summaryState("d", nil, ""),
				summaryState("f", ns("d"), ""),
				summaryState("c", ns("f"), ""),
			),
		),
		"demo-self": doc("demo/self",
			summaryState("a", nil, ""),
			group("b-again", ns("a"), 3, "the retreat: b -> b",
				summaryState("b", nil, "Poll until ready."),
			),
		),
		"demo-bare": doc("demo/bare",
			group("work", nil, 0, "",
				step("work-1", nil, &Run{State: "work", Kind: KindLLM,
					Prompt:  "Say \"hi\"\tthen \\ stop.\nSecond line.\n",
					Context: ns("docs/a.md", "docs/b.md"),
					Scope:   ns("src/**=partial-only", "tests/**=partial-only", "**=denied"),
					Harness: "claude-code"}),
				step("work-2", ns("work-1"), &Run{State: "work", Kind: KindCommand,
					Command:  ns("make", "out={run_directory}/r.yaml"),
					Evidence: &Evidence{Kind: "test_result", Verifier: "test-runner", Suite: "e2e"}}),
				step("work-3", ns("work-2"), &Run{State: "work", Kind: KindOperator, Prompt: "Approve."}),
			),
		),
	}
}

// specBodies names the file holding each spec document's body as
// projection.md prints it: §7.3's in ../testdata/projection (shared with
// package compiler, which projects the same bodies), §7.1's in
// testdata/write.
var specBodies = map[string]string{
	"adp-default":   filepath.Join("testdata", "write", "adp-default.yaml"),
	"demo-bare":     filepath.Join("..", "testdata", "projection", "bare-map.body"),
	"demo-dfs":      filepath.Join("..", "testdata", "projection", "dfs.body"),
	"demo-self":     filepath.Join("..", "testdata", "projection", "self.body"),
	"demo-touching": filepath.Join("..", "testdata", "projection", "touching.body"),
}

// TestWriteYAMLSpecBodies checks the writer against the bodies of
// projection.md §7.1 and §7.3, copied by hand from the specification.
func TestWriteYAMLSpecBodies(t *testing.T) {
	for name, d := range specDocuments() {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteYAML(&b, nil, d); err != nil {
				t.Fatal(err)
			}
			file, ok := specBodies[name]
			if !ok {
				t.Fatalf("no body file for %s", name)
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b.Bytes(), want) {
				t.Errorf("body differs from projection.md\n--- got\n%s--- want\n%s", b.Bytes(), want)
			}
		})
	}
}

// TestWriteJSONGolden pins the JSON form of the same documents, with a header.
func TestWriteJSONGolden(t *testing.T) {
	header := []string{"generated by a test", "", "do not edit"}
	for name, d := range specDocuments() {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteJSON(&b, header, d); err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("write", name+".json"), b.Bytes())
		})
	}
}

// TestWriteRoundTrip reads back both forms of every spec document and checks
// that the document is unchanged and passes every check.
func TestWriteRoundTrip(t *testing.T) {
	for name, d := range specDocuments() {
		for _, form := range []string{"yaml", "json"} {
			t.Run(name+"."+form, func(t *testing.T) {
				var b bytes.Buffer
				write := WriteYAML
				if form == "json" {
					write = WriteJSON
				}
				if err := write(&b, []string{"header"}, d); err != nil {
					t.Fatal(err)
				}
				got, ds := CheckBytes("x."+form, b.Bytes(), CheckOptions{})
				if ds.HasErrors() {
					t.Fatalf("written document refused:\n%v", ds.Err())
				}
				want := stripComments(d)
				if !equalDocument(got, want) {
					t.Errorf("round trip changed the document:\n%s", b.Bytes())
				}
			})
		}
	}
}

func TestWriteHeader(t *testing.T) {
	d := doc("x", group("g", nil, 0, "", step("s", nil, nil)))
	var b bytes.Buffer
	if err := WriteYAML(&b, []string{"one", "", "two"}, d); err != nil {
		t.Fatal(err)
	}
	want := "# one\n#\n# two\nid: x\nroot:\n  id: root\n  nodes:\n    - id: g\n      nodes:\n        - id: s\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	if err := WriteYAML(&b, []string{"a\nb"}, d); err == nil {
		t.Error("a header line with a line break was accepted")
	}
	if err := WriteYAML(&b, nil, &Document{ID: "x"}); err == nil {
		t.Error("a document without root was accepted")
	}
	bad := doc("x", step("s", nil, &Run{Kind: "shell"}))
	if err := WriteJSON(&b, nil, bad); err == nil {
		t.Error("an unknown kind was accepted")
	}
}

func TestQ(t *testing.T) {
	for in, want := range map[string]string{
		"plain":         `"plain"`,
		`a\b`:           `"a\\b"`,
		`say "hi"`:      `"say \"hi\""`,
		"l1\nl2\r\tx":   `"l1\nl2\r\tx"`,
		"#: — é":        `"#: — é"`,
		`\"`:            `"\\\""`,
		"\\n (literal)": `"\\n (literal)"`,
	} {
		if got := q(in); got != want {
			t.Errorf("q(%q) = %s, want %s", in, got, want)
		}
	}
}
