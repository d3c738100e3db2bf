package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHooksRefusesNonUTF8Paths: a Linux path may hold any byte but `/`
// and NUL, and JSON carries only UTF-8 text. encoding/json wrote the byte
// 0xff as U+FFFD, so `hooks --project` on such a directory checked the
// project, exited 0 and wrote a hooks file naming a directory that does not
// exist: every consultation of the hook then failed. Nothing is written
// now, and the message names the flag.
func TestHooksRefusesNonUTF8Paths(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "pro\xffj")
	if err := os.MkdirAll(filepath.Join(proj, ".engineering"), 0o755); err != nil {
		t.Skipf("this file system refuses the name: %v", err)
	}
	if err := os.WriteFile(filepath.Join(proj, ".engineering", "project.yaml"), []byte("version: aep.project/5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "hooks.json")
	for _, args := range [][]string{
		{"--project", proj},
		{"--project", filepath.Join(dir, "ok"), "--plugin-dir", proj},
		{"--project", filepath.Join(dir, "ok"), "--store", proj},
	} {
		if err := os.MkdirAll(filepath.Join(dir, "ok", ".engineering"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "ok", ".engineering", "project.yaml"), []byte("version: aep.project/5\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"hooks", "--out", out, "--via", "aepflow"}, args...), strings.NewReader(""), &stdout, &stderr)
		flag := args[len(args)-2]
		if code != exitProblems || !strings.Contains(stderr.String(), "not writing "+filepath.Join(dir, "hooks.json")+": "+flag+" ") ||
			!strings.Contains(stderr.String(), `pro\xffj is not UTF-8 text, which a JSON hooks file cannot carry`) {
			t.Errorf("%v: exit %d\nstdout %q\nstderr %q", args, code, stdout.String(), stderr.String())
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%v: %s was written", args, out)
		}
	}
}
