package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const diffWorkflow = "id: demo/w\ntitle: W\ninitial: a\nstates:\n  a: {title: A, terminal: true}\n"

// gitRepo makes a repository holding tree/workflows/w.yaml and the extra
// files given, committed, isolated from the user's git configuration. It
// skips the test, saying so, when git is absent.
func gitRepo(t *testing.T, extra map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH; diff --against needs it")
	}
	t.Setenv("HOME", t.TempDir())
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	dir := t.TempDir()
	files := map[string]string{"tree/workflows/w.yaml": diffWorkflow}
	for k, v := range extra {
		files[k] = v
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"}, {"add", "-A"},
		{"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "base"},
	} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

func runDiffCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"diff"}, args...), strings.NewReader(""), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestDiffAgainstWithoutGit(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PATH", t.TempDir())
	code, stdout, stderr := runDiffCmd(t, "--root", dir, "--against", "HEAD")
	if code != exitUndecided || stdout != "" || !strings.Contains(stderr, "git is not installed or not on PATH [git_error]") {
		t.Errorf("exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
	}
}

func TestDiffAgainstOutsideARepository(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH; diff --against needs it")
	}
	code, stdout, stderr := runDiffCmd(t, "--root", t.TempDir(), "--against", "HEAD")
	if code != exitUndecided || stdout != "" || !strings.Contains(stderr, "not a git repository") {
		t.Errorf("exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
	}
}

// TestDiffAgainstRefusesWhatItWillNotRead commits what a revision must not
// be trusted with: a document over the size bound (refused from git's
// listing, unread: exit 1) and a symbolic link where a document belongs
// (git holds no document there: exit 3).
func TestDiffAgainstRefusesWhatItWillNotRead(t *testing.T) {
	big := "# " + strings.Repeat("x", 4<<20) + "\n" + diffWorkflow
	dir := gitRepo(t, map[string]string{"tree/workflows/big.yaml": big})
	code, stdout, stderr := runDiffCmd(t, "--root", filepath.Join(dir, "tree"), "--against", "HEAD")
	if code != exitProblems || stdout != "" ||
		!strings.Contains(stderr, fmt.Sprintf("HEAD:tree/workflows/big.yaml: the file is %d bytes, over the limit of 4194304 bytes [input_too_large]", len(big))) {
		t.Errorf("exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
	}

	dir = gitRepo(t, nil)
	if err := os.Symlink("w.yaml", filepath.Join(dir, "tree", "workflows", "link.yaml")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	for _, args := range [][]string{{"add", "tree"}, {"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "link"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	code, stdout, stderr = runDiffCmd(t, "--root", filepath.Join(dir, "tree"), "--against", "HEAD")
	if code != exitUndecided || stdout != "" ||
		!strings.Contains(stderr, "HEAD:tree/workflows/link.yaml: cannot read the file: git holds it as a symbolic link, not a regular file [io_error]") {
		t.Errorf("exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
	}
}

// TestDiffNeverSaysNoChangeUnread runs every way a side can fail to be
// read or be refused and checks that none exits 0 or prints a report.
func TestDiffNeverSaysNoChangeUnread(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "w.yaml")
	if err := os.WriteFile(good, []byte(diffWorkflow), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("id: demo/w\ntitle: W\ninitial: nowhere\nstates:\n  a: {title: A, terminal: true}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.yaml")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{good, filepath.Join(dir, "missing.yaml")},
		{filepath.Join(dir, "missing.yaml"), good},
		{good, dir},
		{good, bad},
		{bad, good},
		{good, empty},
		{good, "/dev/zero"},
	} {
		code, stdout, stderr := runDiffCmd(t, args...)
		if code == exitOK || stdout != "" || stderr == "" {
			t.Errorf("diff %v: exit %d\nstdout %q\nstderr %q", args, code, stdout, stderr)
		}
	}
}

// TestDiffAgainstBoundsTheRevisionInAll: a revision's documents are held at
// once, so they are bounded in all as a tree on disk is, from git's listing
// before any blob is read; the first file past the bound is named, the
// others are not read, and nothing is reported as unchanged.
func TestDiffAgainstBoundsTheRevisionInAll(t *testing.T) {
	dir := gitRepo(t, map[string]string{
		"tree/workflows/x.yaml": strings.Replace(diffWorkflow, "demo/w", "demo/x", 1),
		"tree/workflows/y.yaml": strings.Replace(diffWorkflow, "demo/w", "demo/y", 1),
	})
	defer func(old int64) { maxRevisionBytes = old }(maxRevisionBytes)
	maxRevisionBytes = int64(2 * len(diffWorkflow)) // w.yaml and x.yaml fit, y.yaml does not
	code, stdout, stderr := runDiffCmd(t, "--root", filepath.Join(dir, "tree"), "--against", "HEAD")
	if code != exitProblems || stdout != "" ||
		!strings.Contains(stderr, fmt.Sprintf("HEAD:tree/workflows/y.yaml: the tree's documents exceed the limit of %d bytes in all; this file and the ones after it are not read [input_too_large]", maxRevisionBytes)) ||
		strings.Contains(stderr, "w.yaml:") || strings.Contains(stderr, "x.yaml:") {
		t.Errorf("exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
	}
	maxRevisionBytes = int64(3 * len(diffWorkflow))
	if code, stdout, stderr := runDiffCmd(t, "--root", filepath.Join(dir, "tree"), "--against", "HEAD"); code != exitOK {
		t.Errorf("within the bound: exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
	}
}

// TestDiffAgainstSuggestsARevision: a misspelt revision is looked up among
// HEAD, the branches and the tags, with a "did you mean".
func TestDiffAgainstSuggestsARevision(t *testing.T) {
	dir := gitRepo(t, nil)
	for rev, want := range map[string]string{"HEED": `"HEED"; did you mean "HEAD"?`, "mian": `"mian"; did you mean "main"?`} {
		code, stdout, stderr := runDiffCmd(t, "--root", filepath.Join(dir, "tree"), "--against", rev)
		if code != exitUndecided || stdout != "" || !strings.Contains(stderr, "the repository has no revision "+want+" [git_error]") {
			t.Errorf("--against %s: exit %d\nstdout %q\nstderr %q", rev, code, stdout, stderr)
		}
	}
}
