package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestLinksOnlyTheHook holds aepflow-hook to what it is for: the decision
// and the standard library, none of the libraries that make aepflow's
// start-up dearer (cobra and pflag, which imports net; go-graphviz; the
// language server's and diff's libraries), and none of aepflow's other
// commands.
func TestLinksOnlyTheHook(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/aepflow/aepflow/transition") {
		t.Fatal("aepflow-hook does not link package transition: this test would prove nothing")
	}
	for _, banned := range []string{
		"github.com/spf13/cobra", "github.com/spf13/pflag", "net", "net/url",
		"github.com/goccy/go-graphviz", "github.com/sergi/go-diff/diffmatchpatch",
		"github.com/tliron/glsp", "github.com/santhosh-tekuri/jsonschema/v6",
		"github.com/aepflow/aepflow/render", "github.com/aepflow/aepflow/trace",
		"github.com/aepflow/aepflow/analysis", "github.com/aepflow/aepflow/lsp",
	} {
		if slices.Contains(deps, banned) {
			t.Errorf("aepflow-hook links %s", banned)
		}
	}
}

// maxInitAllocs is the most allocations one aepflow package's
// initialisation may make in aepflow-hook: a sync.OnceValue or two, never a
// table. Every hook process pays for its packages' start-up, so lookup
// tables are switches or literal slices the linker lays out as data.
const maxInitAllocs = 4

// TestStartsWithoutBuildingTables runs aepflow-hook with the runtime's
// initialisation trace and holds each aepflow package's start-up to
// maxInitAllocs allocations (a map literal of a few entries makes more).
func TestStartsWithoutBuildingTables(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	bin := filepath.Join(t.TempDir(), "aepflow-hook")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "--help")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, _ := cmd.CombinedOutput() // --help exits 1, like the verb's
	// A line reads: init PACKAGE @0.5 ms, 0.01 ms clock, 72 bytes, 2 allocs
	traced := 0
	for line := range strings.Lines(string(out)) {
		f := strings.Fields(line)
		if len(f) < 10 || f[0] != "init" || f[len(f)-1] != "allocs" {
			continue
		}
		traced++
		pkg := f[1]
		n, err := strconv.Atoi(f[len(f)-2])
		if err != nil {
			t.Fatalf("unreadable trace line %q", line)
		}
		if strings.HasPrefix(pkg, "github.com/aepflow/aepflow/") && n > maxInitAllocs {
			t.Errorf("%s allocates %d times at start-up (at most %d): a table built at init?", pkg, n, maxInitAllocs)
		}
	}
	if traced == 0 {
		t.Fatalf("no initialisation trace in the output:\n%s", out)
	}
}
