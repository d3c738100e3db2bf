package conformance

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aepflow/aepflow/internal/hookmatrix"
)

func init() { register(hooksCases...) }

// hooksFile is the file `aepflow hooks` writes (flow-format.md §6).
type hooksFile struct {
	Version int `json:"version"`
	Hooks   []struct {
		On      string   `json:"on"`
		Command []string `json:"command"`
	} `json:"hooks"`
}

// projectF builds project F of the hook's matrix in $WORK/project.
func projectF(t *testing.T, e *Env) {
	hookmatrix.OwnFixture(e.TestdataPath("project"), time.Now()).Build(t, e.WorkPath("project"), hookmatrix.ProjectF)
}

var hooksCases = []Case{
	// The hooks file of a project, then the hook it wires, run as the
	// harness runs it: from another directory, stdin in, answer out.
	{Name: "hooks/project", Setup: projectF, Steps: []Step{
		{Args: []string{"aepflow", "hooks", "--out", "hooks.json", "--run", hookmatrix.RunPassing}, Dir: "project",
			Stdout: []string{`^hooks.json$`}, Files: map[string]string{"project/hooks.json": "hooks/project.json"}},
		{Args: []string{"aepflow", "hooks", "--out", "hooks-root.json", "--project", "project", "--root", "project/tree", "--map", "fx/flow-steps", "--plugin-dir", "plugins"},
			Files: map[string]string{"hooks-root.json": "hooks/project-root.json"}},
		// aepflow-hook is built beside aepflow, so the files above name it;
		// --via aepflow names the verb.
		{Args: []string{"aepflow", "hooks", "--out", "hooks-verb.json", "--project", "project", "--via", "aepflow"},
			Files: map[string]string{"hooks-verb.json": "hooks/project-verb.json"}},
	}, Check: func(t *testing.T, e *Env) {
		h := readHooks(t, e.WorkPath("project", "hooks.json"))
		// The run holds one passing unit test: tests-first refuses the
		// leave of establish_verifiers (engine.md §8.7 #18).
		r := runHook(t, e, h, hookmatrix.LeaveDoc("root.establish_verifiers", false))
		checkAnswer(t, hookmatrix.Row{Want: hookmatrix.Refuse, Reason: hookmatrix.Own.Leave("establish_verifiers", hookmatrix.Own.Passing)}, r)
		r = runHook(t, e, readHooks(t, e.WorkPath("hooks-root.json")), hookmatrix.Doc("root.implement", "enter"))
		checkAnswer(t, hookmatrix.Row{Want: hookmatrix.Proceed}, r)
		r = runHook(t, e, readHooks(t, e.WorkPath("hooks-verb.json")), hookmatrix.LeaveDoc("root.establish_verifiers", false))
		checkAnswer(t, hookmatrix.Row{Want: hookmatrix.Refuse, Reason: hookmatrix.Own.Leave("establish_verifiers", hookmatrix.Own.A)}, r)
	}},
	{Name: "hooks/refusals", Steps: []Step{
		{Args: []string{"aepflow", "hooks"}, Exit: 2, NoStdout: true},
		// The hooks file is never written over a directory.
		{Args: []string{"aepflow", "hooks", "--out", "$WORK", "--project", "$WORK"}, Exit: 1, NoStdout: true},
	}},
}

func readHooks(t *testing.T, path string) hooksFile {
	t.Helper()
	var h hooksFile
	if err := json.Unmarshal(readFile(t, path), &h); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if h.Version != 1 || len(h.Hooks) != 1 || h.Hooks[0].On != "transition" || len(h.Hooks[0].Command) < 3 {
		t.Fatalf("%s: not one transition hook: %+v", path, h)
	}
	return h
}

// runHook runs the hooks file's command from the filesystem root, as the
// harness runs it outside the project, with stdin. Its paths are absolute
// (the goldens show them), so the working directory does not matter.
func runHook(t *testing.T, e *Env, h hooksFile, stdin string) Result {
	t.Helper()
	argv := h.Hooks[0].Command
	if !filepath.IsAbs(argv[0]) || filepath.Dir(argv[0]) != e.Bin {
		t.Errorf("the hook's binary is %s, want the aepflow in %s", argv[0], e.Bin)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = "/"
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := Result{Stdout: stdout.String(), Stderr: stderr.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.Exit = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return r
}
