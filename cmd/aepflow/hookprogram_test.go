package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// hookScripts are the scripts of `aepflow drive transition` that
// TestHookProgramAnswersAlike runs again against aepflow-hook.
var hookScripts = []string{"drive_transition.txtar", "hook_reason_and_state.txtar"}

// TestHookProgramAnswersAlike runs the scripts of `aepflow drive
// transition` again with aepflow-hook in its place: every consultation,
// flag and refusal must give the same stdout, exit code and stderr, the
// prefix `aepflow-hook:` standing for `aepflow: drive transition:`.
func TestHookProgramAnswersAlike(t *testing.T) {
	dir := t.TempDir()
	for _, name := range hookScripts {
		data, err := os.ReadFile(filepath.Join("testdata", "script", name))
		if err != nil {
			t.Fatal(err)
		}
		script := string(data)
		if !strings.Contains(script, "aepflow drive transition") {
			t.Fatalf("%s no longer runs `aepflow drive transition`", name)
		}
		script = strings.NewReplacer(
			"aepflow: drive transition: ", "aepflow-hook: ",
			"aepflow drive transition", "aepflow-hook",
		).Replace(script)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	testscript.Run(t, testscript.Params{Dir: dir})
}
