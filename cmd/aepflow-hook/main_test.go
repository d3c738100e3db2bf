package main

import (
	"os/exec"
	"slices"
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
