package protocol

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
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

func render(l diag.List) string {
	var b strings.Builder
	for _, d := range l.Sorted() {
		b.WriteString(d.Error())
		if d.Path != "" && d.File != "" {
			b.WriteString(" @ " + d.Path)
		}
		b.WriteByte('\n')
		if d.Hint != "" {
			b.WriteString("  hint: " + d.Hint + "\n")
		}
	}
	return b.String()
}

func TestFixtures(t *testing.T) {
	for kind, load := range loaders {
		for _, outcome := range []string{"ok", "err"} {
			files, _ := filepath.Glob(filepath.Join("testdata", kind, outcome, "*.yaml"))
			if len(files) == 0 {
				t.Errorf("no fixtures in testdata/%s/%s", kind, outcome)
			}
			for _, f := range files {
				t.Run(f, func(t *testing.T) {
					data, err := os.ReadFile(f)
					if err != nil {
						t.Fatal(err)
					}
					diags := load(f, data)
					if outcome == "ok" {
						if len(diags) > 0 {
							t.Fatalf("want no diagnostics:\n%s", render(diags))
						}
						return
					}
					if !diags.HasErrors() {
						t.Fatal("want errors, got none")
					}
					golden(t, strings.TrimSuffix(f, ".yaml")+".out", render(diags))
				})
			}
		}
	}
}

func golden(t *testing.T, file, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("diagnostics differ from %s\ngot:\n%s\nwant:\n%s", file, got, want)
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
