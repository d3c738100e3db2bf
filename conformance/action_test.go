package conformance

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

func init() { register(actionCases...) }

// actionStep is one step of ../action.yml.
type actionStep struct {
	ID, If, Run string
	Env         map[string]string
}

// actionStepOf returns the action's step with id.
func actionStepOf(t *testing.T, id string) actionStep {
	t.Helper()
	var action struct {
		Runs struct{ Steps []actionStep }
	}
	if err := yaml.Unmarshal(readFile(t, filepath.Join("..", "action.yml")), &action); err != nil {
		t.Fatal(err)
	}
	for _, s := range action.Runs.Steps {
		if s.ID == id {
			return s
		}
	}
	t.Fatalf("action.yml has no step %q", id)
	return actionStep{}
}

// actionStepEnv returns the value the action's step with id sets for
// the environment variable name.
func actionStepEnv(t *testing.T, id, name string) string {
	t.Helper()
	v, ok := actionStepOf(t, id).Env[name]
	if !ok {
		t.Fatalf("action.yml's step %q sets no %s", id, name)
	}
	return v
}

// runActionDiff runs the action's diff step with bash in the case's work
// directory, as the runner would: the built aepflow where the step looks
// for it ($(go env GOPATH)/bin), the step's inputs in its environment, and
// the runner's output and summary files. It returns the exit code, the
// combined output and the two files' contents.
func runActionDiff(t *testing.T, e *Env, against, out string, env ...string) (int, string, string, string) {
	t.Helper()
	gopath := e.WorkPath(".gopath")
	if err := os.MkdirAll(filepath.Join(gopath, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(e.Bin, "aepflow"), filepath.Join(gopath, "bin", "aepflow")); err != nil && !os.IsExist(err) {
		t.Fatal(err)
	}
	output, summary := e.WorkPath(".github-output"), e.WorkPath(".github-summary")
	cmd := exec.Command("bash", "-e", "-c", actionStepOf(t, "diff").Run)
	cmd.Dir = e.Work
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + e.Work, "GOPATH=" + gopath, "GOFLAGS=", "GOTOOLCHAIN=local",
		"ROOT=tree", "AGAINST=" + against, "BASE=", "OUT=" + out,
		"GITHUB_OUTPUT=" + output, "GITHUB_STEP_SUMMARY=" + summary,
		"GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
		"SUMMARY_LIMIT=" + actionStepEnv(t, "diff", "SUMMARY_LIMIT"),
	}
	cmd.Env = append(cmd.Env, env...) // later entries win
	if err := os.Remove(summary); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	combined, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	gotOutput, _ := os.ReadFile(output)
	gotSummary, _ := os.ReadFile(summary)
	return code, string(combined), string(gotOutput), string(gotSummary)
}

// gitTree makes the work directory a git repository whose one commit holds
// the project fixture's tree under tree/.
func gitTree(t *testing.T, e *Env) {
	for _, tool := range []string{"git", "bash", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not on PATH: the action's diff step needs it", tool)
		}
	}
	src := e.TestdataPath("project", "tree")
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		writeFile(t, e, filepath.Join("tree", rel), string(readFile(t, path)))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main", "."}, {"add", "tree"}, {"commit", "-q", "-m", "base"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = e.Work
		cmd.Env = []string{"HOME=" + e.Work, "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com"}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

var actionCases = []Case{
	{Name: "action/diff-step", Setup: gitTree, Check: func(t *testing.T, e *Env) {
		// Nothing changed: the step passes with the "no change" report.
		code, out, outputs, summary := runActionDiff(t, e, "HEAD", "diff.md")
		if code != 0 || !strings.Contains(outputs, "status=0\n") || !strings.Contains(outputs, "diff-file=diff.md\n") || !strings.Contains(summary, "## aepflow diff against `HEAD`") {
			t.Fatalf("no change: exit %d\n%s\noutputs:\n%s\nsummary:\n%s", code, out, outputs, summary)
		}
		// A retitled state: changes are reported, not a failure.
		flow := e.WorkPath("tree", "workflows", "fx", "flow.yaml")
		src := string(readFile(t, flow))
		writeFile(t, e, "tree/workflows/fx/flow.yaml", strings.Replace(src, "title: Review", "title: Final review", 1))
		code, out, outputs, summary = runActionDiff(t, e, "HEAD", "diff.md")
		if code != 0 || !strings.Contains(outputs, "status=1\n") || !strings.Contains(summary, "`fx/flow`") {
			t.Fatalf("changes: exit %d\n%s\noutputs:\n%s\nsummary:\n%s", code, out, outputs, summary)
		}
		// A report longer than a job summary holds is cut at a line, with a
		// note; the report file stays whole.
		report := string(readFile(t, e.WorkPath("diff.md")))
		limit := len(report) / 2
		code, out, _, summary = runActionDiff(t, e, "HEAD", "diff.md", fmt.Sprintf("SUMMARY_LIMIT=%d", limit))
		cut, note, found := strings.Cut(summary, "\n\n**The report is cut here**")
		if code != 0 || !found || len(cut) > limit || !strings.HasPrefix(report, cut) || !strings.HasSuffix(cut, "\n") ||
			!strings.Contains(note, fmt.Sprintf("it is %d bytes", len(report))) || !strings.Contains(out, "::warning::") {
			t.Fatalf("long report: exit %d\n%s\nsummary:\n%s", code, out, summary)
		}
		if whole := string(readFile(t, e.WorkPath("diff.md"))); whole != report {
			t.Fatalf("the report file changed when its summary was cut")
		}
		// A revision that cannot be read fails the step, with its exit code.
		code, out, _, _ = runActionDiff(t, e, "no-such-branch", "again.md")
		if code != 3 || !strings.Contains(out, "git_error") || !strings.Contains(out, "::error::aepflow diff could not compare") {
			t.Fatalf("unknown revision: exit %d\n%s", code, out)
		}
	}},
}
