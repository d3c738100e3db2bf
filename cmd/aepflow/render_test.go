package main

import (
	"bytes"
	"errors"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aepflow/aepflow/internal/testkit"
)

// TestRenderHookBinaryHasNoGraphviz asserts rendering.md §6.3: the binary
// that answers the transition hook does not link go-graphviz, whose init
// costs every process tens of milliseconds; the companion does.
func TestRenderHookBinaryHasNoGraphviz(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	deps := func(pkg string) string {
		out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
		}
		return string(out)
	}
	const lib = "github.com/goccy/go-graphviz"
	if strings.Contains(deps("."), lib) {
		t.Errorf("./cmd/aepflow depends on %s; only ./cmd/aepflow-render may", lib)
	}
	if !strings.Contains(deps("../aepflow-render"), lib) {
		t.Errorf("./cmd/aepflow-render does not depend on %s: this test would prove nothing", lib)
	}
}

const renderTreeWorkflow = `id: demo/pic
title: Picture
initial: start
states:
  start: {title: Start}
  work: {title: "Work \"hard\"", phases: [doing]}
  check: {title: Check, phases: [doing]}
  done: {title: Done, terminal: true}
transitions:
  - {from: start, to: work}
  - {from: work, to: check, when: "changes > 0"}
  - {from: check, to: work, when: check.failed}
  - {from: check, to: done, when: check.passed}
`

// renderTree writes a one-workflow tree and returns its root.
func renderTree(t *testing.T) string {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "workflows"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "workflows", "pic.yaml"), []byte(renderTreeWorkflow), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

func TestRenderUsageExitCodes(t *testing.T) {
	root := renderTree(t)
	cases := [][]string{
		{"render", "--root", root},
		{"render", "--id", "demo/pic", "--root", root, "--format", "jpg"},
		{"render", "--id", "demo/pic", "--root", root, "--format", "png", "--out", "x.svg"},
		{"render", "--id", "demo/pic", "--root", root, "--format", "dot", "--out", "x.mmd"},
		{"render", "--id", "demo/pic", "--root", root, "--out", "x.txt"},
		{"render", "--id", "demo/pic", "--root", root, "--format", "dot", "--out", "-", "--check"},
		{"render", "--id", "demo/pic", "--root", root, "--state", "s.json", "--run", "T/1"},
		{"render", "--id", "demo/pic", "--root", root, "--format", "svg", "--out", "x.svg", "--check"},
		{"render", "--id", "demo/pic", "--root", root, "--format", "png", "--out", "x.png", "--check"},
		{"render", "--id", "demo/pic", "--root", root, "--format", "mermaid", "--check"},
		{"render", "--id", "demo/pic", "--root", root, "--clusters", "states"},
		{"render", "--id", "demo/pic", "--root", filepath.Join(root, "missing")},
		{"render", "--id", "demo/pic", "--root", root, "--bogus"},
		{"render", "--id", "demo/pic", "--root", root, "extra"},
	}
	for _, args := range cases {
		var out, errb bytes.Buffer
		if code := run(args, strings.NewReader(""), &out, &errb); code != exitUsage {
			t.Errorf("%v: exit %d, want %d (stderr %q)", args, code, exitUsage, errb.String())
		}
		if out.Len() != 0 {
			t.Errorf("%v: wrote %q to stdout", args, out.String())
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"render", "--id", "demo/nope", "--root", root, "--format", "dot"}, nil, &out, &errb); code != exitProblems {
		t.Errorf("unknown workflow: exit %d, want %d", code, exitProblems)
	}
}

// buildCompanion builds cmd/aepflow-render into a temporary directory and
// points $AEPFLOW_RENDER at it.
func buildCompanion(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a binary")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	bin := filepath.Join(t.TempDir(), "aepflow-render")
	if out, err := exec.Command("go", "build", "-o", bin, "../aepflow-render").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	t.Setenv(renderCompanionEnv, bin)
}

func TestRenderSVGAndPNG(t *testing.T) {
	buildCompanion(t)
	root := renderTree(t)
	var out, errb bytes.Buffer
	if code := run([]string{"render", "--id", "demo/pic", "--root", root, "--clusters", "phases"}, nil, &out, &errb); code != exitOK {
		t.Fatalf("svg: exit %d: %s", code, errb.String())
	}
	titles, edges := testkit.SVGGraph(t, out.Bytes())
	if got := strings.Join(titles, ","); got != "__initial,check,done,start,work" {
		t.Errorf("svg node titles = %s", got)
	}
	if edges != 5 {
		t.Errorf("svg has %d edge groups, want 4 transitions + the initial edge", edges)
	}
	if !bytes.Contains(out.Bytes(), []byte("Work &quot;hard&quot;")) {
		t.Errorf("svg lacks the escaped title of `work`")
	}

	pic := filepath.Join(t.TempDir(), "pic.png")
	out.Reset()
	if code := run([]string{"render", "--id", "demo/pic", "--root", root, "--format", "png", "--out", pic}, nil, &out, &errb); code != exitOK {
		t.Fatalf("png: exit %d: %s", code, errb.String())
	}
	if out.String() != pic+"\n" {
		t.Errorf("stdout = %q, want the path", out.String())
	}
	f, err := os.Open(pic)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("png does not decode: %v", err)
	}
	if b := img.Bounds(); b.Dx() < 100 || b.Dy() < 300 || b.Dx() > 3000 || b.Dy() > 3000 {
		t.Errorf("png is %dx%d, want a sensible size", b.Dx(), b.Dy())
	}

	// The format follows --out's extension when --format is absent.
	byName := filepath.Join(t.TempDir(), "byname.png")
	if code := run([]string{"render", "--id", "demo/pic", "--root", root, "--out", byName}, nil, &out, &errb); code != exitOK {
		t.Fatalf("--out x.png: exit %d: %s", code, errb.String())
	}
	if data, _ := os.ReadFile(byName); !bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("--out %s without --format did not write a PNG: %.20q", byName, data)
	}
	// PNG goes to standard output when it is not a terminal (a pipe).
	out.Reset()
	if code := run([]string{"render", "--id", "demo/pic", "--root", root, "--format", "png"}, nil, &out, &errb); code != exitOK {
		t.Fatalf("png to a pipe: exit %d: %s", code, errb.String())
	}
	if !bytes.HasPrefix(out.Bytes(), []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("png to a pipe: stdout is not a PNG: %.20q", out.Bytes())
	}
}

// TestRenderPNGNotToATerminal: only a terminal is refused PNG bytes.
func TestRenderPNGNotToATerminal(t *testing.T) {
	root := renderTree(t)
	f := renderFlags{id: "demo/pic", root: root, format: "png", formatSet: true, toTerminal: true, timeout: time.Second}
	if err := f.validate(); err == nil || !strings.Contains(err.Error(), "not written to a terminal") {
		t.Errorf("png to a terminal: %v", err)
	}
	f.toTerminal = false
	if err := f.validate(); err != nil {
		t.Errorf("png to a pipe: %v", err)
	}
}

// TestRenderCompanionTimeBound: a companion that outlives its time bound
// (by the grace period) is killed, and render reports it clearly.
func TestRenderCompanionTimeBound(t *testing.T) {
	dir := t.TempDir()
	companion := filepath.Join(dir, "slow-render")
	if err := os.WriteFile(companion, []byte("#!/bin/sh\nexec sleep 600\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(renderCompanionEnv, companion)
	defer func(g time.Duration) { companionGrace = g }(companionGrace)
	companionGrace = 50 * time.Millisecond
	root := renderTree(t)
	var out, errb bytes.Buffer
	code := run([]string{"render", "--id", "demo/pic", "--root", root, "--timeout", "10ms"}, nil, &out, &errb)
	if code != exitProblems || !strings.Contains(errb.String(), "did not finish within 60ms and was stopped; the graph is too costly to lay out") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
	if out.Len() != 0 {
		t.Errorf("stdout %q", out.String())
	}
}

// TestRenderLargestTimeout: the companion is given its --timeout and
// killed a grace period after it; the largest duration plus the grace
// wrapped below zero, so `--timeout 2562047h47m16s` failed at once with
// "cannot start …: context deadline exceeded". The sum saturates now.
func TestRenderLargestTimeout(t *testing.T) {
	companion := filepath.Join(t.TempDir(), "fast-render")
	if err := os.WriteFile(companion, []byte("#!/bin/sh\ncat >/dev/null\necho '<svg/>'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(renderCompanionEnv, companion)
	root := renderTree(t)
	var out, errb bytes.Buffer
	code := run([]string{"render", "--id", "demo/pic", "--root", root, "--timeout", time.Duration(math.MaxInt64).String()}, nil, &out, &errb)
	if code != exitOK || out.String() != "<svg/>\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
}

// TestRenderCompanionOutputChecked: a companion that exits 0 without a
// picture of the format asked for (nothing, garbage, a truncated PNG, the
// other format) or is killed leaves no file and fails the render.
func TestRenderCompanionOutputChecked(t *testing.T) {
	root := renderTree(t)
	for _, c := range []struct{ name, format, script string }{
		{"nothing", "svg", "cat >/dev/null"},
		{"garbage", "svg", "cat >/dev/null; echo 'not a picture'"},
		{"svg cut short", "svg", "cat >/dev/null; printf '<?xml version=\"1.0\"?>\\n<svg xmlns=\"http://www.w3.org/2000/svg\"><g>'"},
		{"html", "svg", "cat >/dev/null; echo '<html><svg></svg></html>'"},
		{"png for svg", "svg", "cat >/dev/null; printf '\\211PNG\\r\\n\\032\\n'"},
		{"nothing", "png", "cat >/dev/null"},
		{"png signature only", "png", "cat >/dev/null; printf '\\211PNG\\r\\n\\032\\n'"},
		{"svg for png", "png", "cat >/dev/null; echo '<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>'"},
		{"killed", "png", "cat >/dev/null; printf '\\211PNG\\r\\n\\032\\n'; kill -9 $$"},
	} {
		companion := filepath.Join(t.TempDir(), "bad-render")
		if err := os.WriteFile(companion, []byte("#!/bin/sh\n"+c.script+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		t.Setenv(renderCompanionEnv, companion)
		pic := filepath.Join(t.TempDir(), "pic."+c.format)
		var out, errb bytes.Buffer
		code := run([]string{"render", "--id", "demo/pic", "--root", root, "--format", c.format, "--out", pic}, nil, &out, &errb)
		if code != exitProblems || !strings.Contains(errb.String(), "bad-render") {
			t.Errorf("%s (%s): exit %d, stderr %q; want exit %d naming the companion", c.name, c.format, code, errb.String(), exitProblems)
		}
		if _, err := os.Stat(pic); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s (%s): --out %s exists (%v)", c.name, c.format, pic, err)
		}
		if out.Len() != 0 {
			t.Errorf("%s (%s): stdout %q", c.name, c.format, out.String())
		}
	}
}

// TestRenderCompanionOutputBounded: a companion that writes without end
// is stopped at the bound on its output, not buffered until its time
// bound.
func TestRenderCompanionOutputBounded(t *testing.T) {
	defer func(n int) { maxCompanionOutput = n }(maxCompanionOutput)
	maxCompanionOutput = 1 << 20
	root := renderTree(t)
	for _, script := range []string{"cat >/dev/null; exec yes", "cat >/dev/null; exec yes >&2"} {
		companion := filepath.Join(t.TempDir(), "endless-render")
		if err := os.WriteFile(companion, []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		t.Setenv(renderCompanionEnv, companion)
		pic := filepath.Join(t.TempDir(), "pic.svg")
		var out, errb bytes.Buffer
		code := run([]string{"render", "--id", "demo/pic", "--root", root, "--out", pic, "--timeout", "10m"}, nil, &out, &errb)
		if code != exitProblems || !strings.Contains(errb.String(), "more than 1 MiB") {
			t.Errorf("%s: exit %d, stderr %.200q", script, code, errb.String())
		}
		if _, err := os.Stat(pic); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: --out exists (%v)", script, err)
		}
	}
}
