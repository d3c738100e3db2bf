package instruct

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/aepflow/aepflow/internal/testshared"
)

// The facts ../shared/tools/instruct_facts.py reads from a document
// (instructions.md §12.3), as far as the tests compare them.
type checkerFacts struct {
	Kind       string             `json:"kind"`
	Reference  string             `json:"reference"`
	Title      string             `json:"title"`
	Counts     map[string]int     `json:"counts"`
	States     []checkerState     `json:"states"`
	Principles []checkerPrinciple `json:"principles"`
	Index      []checkerEntry     `json:"index"`
	Checks     []checkerCheck     `json:"checks"`
}

type checkerState struct {
	Ordinal     int           `json:"ordinal"`
	ID          string        `json:"id"`
	Title       string        `json:"title"`
	Requires    []string      `json:"requires"`
	Obligations checkerLists  `json:"obligations"`
	Steps       []checkerItem `json:"steps"`
	Transitions []checkerMove `json:"transitions"`
}

type checkerLists struct {
	Before []checkerItem `json:"before"`
	During []checkerItem `json:"during"`
}

type checkerItem struct {
	ID    string `json:"id"`
	Kind  string `json:"kind"`
	Label string `json:"label"`
}

type checkerMove struct {
	To    string  `json:"to"`
	Guard *string `json:"guard"`
	Text  string  `json:"text"`
}

type checkerPrinciple struct {
	Reference   string         `json:"reference"`
	Title       string         `json:"title"`
	Obligations []checkerBlock `json:"obligations"`
}

type checkerBlock struct {
	Timing   string   `json:"timing"`
	States   []string `json:"states"`
	Requires []string `json:"requires"`
}

type checkerEntry struct {
	Path      string `json:"path"`
	Title     string `json:"title"`
	Reference string `json:"reference"`
}

type checkerCheck struct {
	Check string `json:"check"`
	OK    bool   `json:"ok"`
}

// sharedDirOrSkip returns ../shared, or skips the test where it is absent.
func sharedDirOrSkip(t testing.TB) string {
	t.Helper()
	return testshared.Dir(t)
}

// checkerPath returns the checker script, skipping the test (with a
// message) where python3 or ../shared is absent, as in a CI without them.
func checkerPath(t testing.TB) string {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not on PATH: the instructions checker cannot run")
	}
	return filepath.Join(sharedDirOrSkip(t), "tools", "instruct_facts.py")
}

// runChecker runs the checker with --strict on file and returns its facts;
// it fails t when the checker fails a consistency check or cannot read the
// document.
func runChecker(t testing.TB, checker, file string) checkerFacts {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command("python3", checker, "--strict", file)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var facts checkerFacts
	if jerr := json.Unmarshal(stdout.Bytes(), &facts); jerr != nil {
		t.Fatalf("the checker printed no facts for %s (%v): %v\n%s", file, err, jerr, stderr.String())
	}
	for _, c := range facts.Checks {
		if !c.OK {
			t.Errorf("%s: checker check failed: %s", file, c.Check)
		}
	}
	if err != nil {
		t.Fatalf("the checker refused %s: %v\n%s", file, err, stderr.String())
	}
	return facts
}

// sharedTreeIfPresent returns ../shared/corpus/tree when it exists.
func sharedTreeIfPresent() (string, error) {
	dir, err := testshared.Find()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "corpus", "tree"), nil
}
