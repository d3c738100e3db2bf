package main

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// TestPublishedHooksRunRealCommands reads the files other tools run
// aepflow from — .pre-commit-hooks.yaml and action.yml — and checks that
// every command line they hold names a command and flags aepflow has.
func TestPublishedHooksRunRealCommands(t *testing.T) {
	repo := filepath.Join("..", "..")
	data, err := os.ReadFile(filepath.Join(repo, ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var hooks []struct {
		ID, Entry, Language string
		PassFilenames       *bool `yaml:"pass_filenames"`
	}
	if err := yaml.Unmarshal(data, &hooks); err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, h := range hooks {
		ids[h.ID] = true
		if h.Language != "golang" || h.PassFilenames == nil || *h.PassFilenames {
			t.Errorf("%s: language %q, pass_filenames %v; want golang and false (the hook checks a whole tree)", h.ID, h.Language, h.PassFilenames)
		}
		checkCommandLine(t, h.ID, h.Entry)
	}
	for _, id := range []string{"aepflow-validate", "aepflow-flow-check", "aepflow-render-check"} {
		if !ids[id] {
			t.Errorf(".pre-commit-hooks.yaml lacks %s", id)
		}
	}

	data, err = os.ReadFile(filepath.Join(repo, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Inputs map[string]struct{ Default string }
		Runs   struct {
			Using string
			Steps []struct {
				ID, If, Run string
				Env         map[string]string
			}
		}
	}
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatal(err)
	}
	found := false
	invocation := regexp.MustCompile(`/bin/aepflow" (validate [^>\n]+)`)
	for _, s := range action.Runs.Steps {
		for _, m := range invocation.FindAllStringSubmatch(s.Run, -1) {
			found = true
			line := strings.NewReplacer(`"$ROOT"`, "tree").Replace(m[1])
			if !strings.Contains(line, "--format sarif") {
				t.Errorf("action.yml runs %q, not --format sarif", line)
			}
			checkCommandLine(t, "action.yml", "aepflow "+line)
		}
	}
	if action.Runs.Using != "composite" || !found {
		t.Errorf("action.yml: using %q, validate found %v", action.Runs.Using, found)
	}

	// The optional diff step: off by default, on with `diff: true`,
	// comparing --root with the pull request's base as Markdown.
	if in, ok := action.Inputs["diff"]; !ok || in.Default != "false" {
		t.Errorf("action.yml: input diff %+v, want one that defaults to \"false\"", in)
	}
	diffRun := regexp.MustCompile(`/bin/aepflow" (diff [^|\n]+?)( \|\||\n)`)
	diffs := 0
	for _, s := range action.Runs.Steps {
		for _, m := range diffRun.FindAllStringSubmatch(s.Run, -1) {
			diffs++
			if s.If != "inputs.diff == 'true'" {
				t.Errorf("action.yml: the diff step runs if %q, want only when the diff input is on", s.If)
			}
			if s.Env["BASE"] != "${{ github.base_ref }}" || !strings.Contains(s.Run, `AGAINST="origin/$BASE"`) {
				t.Errorf("action.yml: the diff step does not default --against to the pull request's base: env %v", s.Env)
			}
			for _, want := range []string{`--against "$AGAINST"`, "--format markdown", `--root "$ROOT"`, `--out "$OUT"`} {
				if !strings.Contains(m[1], want) {
					t.Errorf("action.yml runs %q, without %s", m[1], want)
				}
			}
			line := strings.NewReplacer(`"$ROOT"`, "tree", `"$AGAINST"`, "origin/main", `"$OUT"`, "diff.md").Replace(m[1])
			checkCommandLine(t, "action.yml", "aepflow "+line)
		}
	}
	if diffs != 1 {
		t.Errorf("action.yml runs aepflow diff %d times, want once", diffs)
	}
}

// checkCommandLine resolves an `aepflow …` command line against the
// command tree: the command must exist and every --flag be one of its.
func checkCommandLine(t *testing.T, who, line string) {
	t.Helper()
	words := strings.Fields(line)
	if len(words) < 2 || words[0] != "aepflow" {
		t.Errorf("%s: %q does not run aepflow", who, line)
		return
	}
	root := newRootCmd(strings.NewReader(""), io.Discard, io.Discard)
	cmd, rest, err := root.Find(words[1:])
	if err != nil || cmd == root {
		t.Errorf("%s: %q names no command: %v", who, line, err)
		return
	}
	for _, w := range rest {
		if name, ok := strings.CutPrefix(w, "--"); ok {
			name, _, _ = strings.Cut(name, "=")
			if cmd.Flags().Lookup(name) == nil {
				t.Errorf("%s: %s has no flag --%s", who, cmd.CommandPath(), name)
			}
		}
	}
}
