// Package instructcheck runs the instructions checker of the shared
// specifications, ../shared/tools/instruct_facts.py (instructions.md
// §12.3), and decodes the facts it reads back from a document, for the
// tests that hold aepflow's instructions against it: package instruct's
// goldens and the corpus cases of package conformance.
//
// It is for tests only; no command depends on it. Where python3 or
// ../shared is absent, Script skips the test with a message.
package instructcheck

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/aepflow/aepflow/internal/testshared"
)

// Facts are the facts the checker reads from a document, as far as the
// tests compare them.
type Facts struct {
	Kind       string         `json:"kind"`
	Reference  string         `json:"reference"`
	Title      string         `json:"title"`
	Counts     map[string]int `json:"counts"`
	States     []State        `json:"states"`
	Principles []Principle    `json:"principles"`
	Index      []Entry        `json:"index"`
	Checks     []Check        `json:"checks"`
}

// State is one state section as the checker reads it.
type State struct {
	Ordinal     int      `json:"ordinal"`
	ID          string   `json:"id"`
	Title       string   `json:"title"`
	Requires    []string `json:"requires"`
	Obligations Lists    `json:"obligations"`
	Steps       []Item   `json:"steps"`
	Transitions []Move   `json:"transitions"`
}

// Lists are a state's obligation lists.
type Lists struct {
	Before []Item `json:"before"`
	During []Item `json:"during"`
}

// Item is an obligation or a step: its id (obligations) or kind (steps)
// and its label.
type Item struct {
	ID    string `json:"id"`
	Kind  string `json:"kind"`
	Label string `json:"label"`
}

// Move is a transition out of a state; Guard is nil when unguarded.
type Move struct {
	To    string  `json:"to"`
	Guard *string `json:"guard"`
	Text  string  `json:"text"`
}

// Principle is one principle section.
type Principle struct {
	Reference   string  `json:"reference"`
	Title       string  `json:"title"`
	Obligations []Block `json:"obligations"`
}

// Block is one obligation block of a principle section.
type Block struct {
	Timing   string   `json:"timing"`
	States   []string `json:"states"`
	Requires []string `json:"requires"`
}

// Entry is one entry of an index document.
type Entry struct {
	Path      string `json:"path"`
	Title     string `json:"title"`
	Reference string `json:"reference"`
}

// Check is one consistency check the checker ran.
type Check struct {
	Check string `json:"check"`
	OK    bool   `json:"ok"`
}

// Script returns the checker script, skipping the test (with a message)
// where python3 or ../shared is absent, as in a CI without them.
func Script(tb testing.TB) string {
	tb.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		tb.Skip("python3 is not on PATH: the instructions checker cannot run")
	}
	return filepath.Join(testshared.Dir(tb), "tools", "instruct_facts.py")
}

// Run runs the checker with --strict on file and returns its facts; it
// fails tb when the checker fails a consistency check or cannot read the
// document.
func Run(tb testing.TB, script, file string) Facts {
	tb.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command("python3", script, "--strict", file)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var facts Facts
	if jerr := json.Unmarshal(stdout.Bytes(), &facts); jerr != nil {
		tb.Fatalf("the checker printed no facts for %s (%v): %v\n%s", file, err, jerr, stderr.String())
	}
	for _, c := range facts.Checks {
		if !c.OK {
			tb.Errorf("%s: checker check failed: %s", file, c.Check)
		}
	}
	if err != nil {
		tb.Fatalf("the checker refused %s: %v\n%s", file, err, stderr.String())
	}
	return facts
}
