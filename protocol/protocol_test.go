package protocol

import (
	"flag"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/internal/testkit"
	"github.com/aepflow/aepflow/yamldoc"
)

var update = flag.Bool("update", false, "rewrite golden files")

// loaders decodes and validates one document of each kind.
var loaders = map[string]func(file string, data []byte) diag.List{
	"protocol":  func(f string, d []byte) diag.List { _, l := LoadProtocol(f, d); return l },
	"principle": func(f string, d []byte) diag.List { _, l := LoadPrinciple(f, d); return l },
	"profile":   func(f string, d []byte) diag.List { _, l := LoadProfile(f, d); return l },
	"lifecycle": func(f string, d []byte) diag.List { _, l := LoadLifecycle(f, d); return l },
}

// render prints diagnostics as the .out files hold them.
var render = testkit.Detailed

// fixtureDir holds the fixtures of every kind, shared with package schemas.
var fixtureDir = filepath.Join("..", "testdata", "protocol")

// fixtureName is the name diagnostics give a fixture: its path below
// fixtureDir, as `testdata/<kind>/…`.
func fixtureName(file string) string {
	rel, err := filepath.Rel(fixtureDir, file)
	if err != nil {
		return file
	}
	return filepath.ToSlash(filepath.Join("testdata", rel))
}

func TestFixtures(t *testing.T) {
	for _, kind := range slices.Sorted(maps.Keys(loaders)) {
		load := loaders[kind]
		f := testkit.Fixtures{
			Check:   func(_ *testing.T, file string, data []byte) diag.List { return load(fixtureName(file), data) },
			Print:   render,
			Require: testkit.RequireError,
		}
		f.Clean(t, filepath.Join(fixtureDir, kind, "ok", "*.yaml"))
		f.Golden(t, *update, filepath.Join(fixtureDir, kind, "err", "*.yaml"))
	}
}

func TestMisplaced(t *testing.T) {
	tests := []struct{ src, want string }{
		{"id: T-1\nkind: feature\nobjective: do it\n", MisplacedTask},
		{"id: T-1\nprofile: development.fast\nconstraints: {facts: {}}\n", MisplacedTask},
		{"version: aep.artifacts/1\nartifacts: []\n", MisplacedManifest},
		{"artifacts: [{id: a, kind: story}]\n", MisplacedManifest},
		{"- kind: test_result\n  observed_at: 2026-01-01\n  producer: {producer: agent, id: x}\n", MisplacedEvidence},
		{"version: aep.project/5\n", MisplacedProject},
		{"id: aep\ntitle: x\nphases: [a]\n", ""},
		{"- 1\n", ""},
		{"just text\n", ""},
	}
	for _, tt := range tests {
		doc, diags := yamldoc.Parse("f.yaml", []byte(tt.src))
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		if got := Misplaced(doc.Root); got != tt.want {
			t.Errorf("Misplaced(%q) = %q, want %q", tt.src, got, tt.want)
		}
	}
}

// TestProfileFactNumbers: a profile's facts are read by DecodeFact, as a
// task's: an integer past 2^53 is refused, not rounded (it was read with
// ParseFloat), `.nan` is refused, not kept as the text ".nan", and 1e400
// is a number out of range, not a text.
func TestProfileFactNumbers(t *testing.T) {
	src := "id: demo\ntitle: Demo\nprotocol: demo/1\nfacts:\n  a.exact: 9007199254740992\n  a.big: 9007199254740993\n  a.nan: .nan\n  a.huge: 1e400\n"
	p, ds := LoadProfile("p.yaml", []byte(src))
	var got []string
	for _, d := range ds {
		got = append(got, d.Message)
	}
	want := []string{
		"the fact `a.big` is `9007199254740993`, a number out of range: numbers are 64-bit floats, which hold whole numbers exactly only from -9007199254740992 to 9007199254740992",
		"the fact `a.nan` is `.nan`, which is not a finite number",
		"the fact `a.huge` is `1e400`, a number out of range: it is beyond the largest 64-bit float (about 1.8e308)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if p == nil || p.Facts["a.exact"].Number() != 9007199254740992 || len(p.Facts) != 1 {
		t.Errorf("facts bound: %v", p)
	}
}
