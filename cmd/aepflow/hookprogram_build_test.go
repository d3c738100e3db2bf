package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// hookLeave leaves establish_verifiers: testdata/project's task, without a
// run, is refused (exit 2) with the engine's reasons.
const hookLeave = `{"hook":"transition","flow":"fx/flow","path":"root.establish_verifiers","moment":"leave","attempt":1,"of":1,"failed":false}` + "\n"

// TestHooksNamesTheHookProgram builds aepflow and aepflow-hook side by
// side, as `go install ./cmd/...` installs them, and checks --via: auto
// names aepflow-hook, whose answer is the verb's; auto passes over a file
// of that name that is not the same build, saying why, and --via
// aepflow-hook refuses it; --via aepflow names the verb, as auto does
// when there is no aepflow-hook.
func TestHooksNamesTheHookProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("builds binaries")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	dir := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", dir+string(filepath.Separator), ".", "../aepflow-hook").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	aepflow, lean := filepath.Join(dir, "aepflow"), filepath.Join(dir, "aepflow-hook")
	project, err := filepath.Abs(filepath.Join("..", "..", "testdata", "project"))
	if err != nil {
		t.Fatal(err)
	}

	argv, stderr := hooksCommand(t, aepflow, project)
	if want := []string{lean, "--project", project}; !slices.Equal(argv, want) || stderr != "" {
		t.Fatalf("hooks names %q (stderr %q), want %q", argv, stderr, want)
	}
	leanOut, leanCode := runHook(t, argv)
	verbOut, verbCode := runHook(t, []string{aepflow, "drive", "transition", "--project", project})
	if leanCode != 2 || leanCode != verbCode || leanOut != verbOut {
		t.Errorf("aepflow-hook answered %d %q, the verb %d %q; want the same refusal", leanCode, leanOut, verbCode, verbOut)
	}
	if argv, _ := hooksCommand(t, aepflow, project, "--via", "aepflow"); !slices.Equal(argv[:3], []string{aepflow, "drive", "transition"}) {
		t.Errorf("--via aepflow names %q", argv)
	}

	// Another Go program under the name, then the program without its
	// execute permission: passed over by auto, refused by --via aepflow-hook.
	other := filepath.Join(t.TempDir(), "other")
	if out, err := exec.Command("go", "build", "-o", other, "../../transition/testdata/minimal").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	hookBytes, err := os.ReadFile(lean)
	if err != nil {
		t.Fatal(err)
	}
	otherBytes, err := os.ReadFile(other)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		data []byte
		mode os.FileMode
		why  string
	}{
		{otherBytes, 0o755, "it is not aepflow-hook but github.com/aepflow/aepflow/transition/testdata/minimal"},
		{hookBytes, 0o644, "it is not executable"},
		{[]byte("#!/bin/sh\nexit 0\n"), 0o755, "it is not a Go program"},
	} {
		if err := os.Remove(lean); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(lean, c.data, c.mode); err != nil {
			t.Fatal(err)
		}
		argv, stderr := hooksCommand(t, aepflow, project)
		if argv[0] != aepflow || !strings.Contains(stderr, "aepflow: note: not naming "+lean+": "+c.why) {
			t.Errorf("%s: auto names %q, stderr %q", c.why, argv, stderr)
		}
		cmd := exec.Command(aepflow, "hooks", "--out", filepath.Join(dir, "refused.json"), "--project", project, "--via", "aepflow-hook")
		out, err := cmd.CombinedOutput()
		if code := processExit(err); code != 1 || !strings.Contains(string(out), "--via aepflow-hook: "+c.why) {
			t.Errorf("%s: --via aepflow-hook exit %d: %s", c.why, code, out)
		}
		if _, err := os.Stat(filepath.Join(dir, "refused.json")); !os.IsNotExist(err) {
			t.Errorf("%s: --via aepflow-hook wrote the hooks file (%v)", c.why, err)
		}
	}

	// Without aepflow-hook, auto names the verb and says nothing.
	if err := os.Remove(lean); err != nil {
		t.Fatal(err)
	}
	if argv, stderr := hooksCommand(t, aepflow, project); argv[0] != aepflow || stderr != "" {
		t.Errorf("without aepflow-hook, auto names %q, stderr %q", argv, stderr)
	}
}

// hooksCommand runs `aepflow hooks` with args and returns the command line
// of the transition hook it wrote, and its stderr.
func hooksCommand(t *testing.T, aepflow, project string, args ...string) ([]string, string) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "hooks.json")
	cmd := exec.Command(aepflow, append([]string{"hooks", "--out", file, "--project", project}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("aepflow hooks: %v\n%s", err, stderr.String())
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var hooks struct {
		Hooks []struct {
			On      string   `json:"on"`
			Command []string `json:"command"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(data, &hooks); err != nil || len(hooks.Hooks) != 1 || len(hooks.Hooks[0].Command) < 3 {
		t.Fatalf("hooks file %s: %v", data, err)
	}
	return hooks.Hooks[0].Command, stderr.String()
}

// runHook runs a hook command line on hookLeave and returns its stdout and
// exit code.
func runHook(t *testing.T, argv []string) (string, int) {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin = strings.NewReader(hookLeave)
	out, err := cmd.Output()
	return string(out), processExit(err)
}

// processExit is the exit code of a finished command's error.
func processExit(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}
