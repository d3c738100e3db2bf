package transition

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aepflow/aepflow/project/projecttest"
)

// TestHostileFilesCannotAnswer places a named pipe, a link to /dev/zero or
// a link out of the project wherever the hook reads a file: each makes the
// hook answer "cannot" (exit 1, which the harness reads as a refusal) at
// once, naming what it found; none blocks, reads a device or answers from
// outside the project.
func TestHostileFilesCannotAnswer(t *testing.T) {
	const enter = `{"hook":"transition","path":"root.implement","moment":"enter"}`
	fifo := func(t *testing.T, path string) {
		t.Helper()
		os.Remove(path)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(path, 0o600); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
	}
	link := func(t *testing.T, target, path string) {
		t.Helper()
		if err := os.RemoveAll(path); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, path); err != nil {
			t.Fatal(err)
		}
	}
	outside := t.TempDir()
	for _, tc := range []struct {
		name  string
		place func(t *testing.T, dir string)
		opts  func(o *Options, dir string)
		want  string
	}{
		{"task a named pipe", func(t *testing.T, dir string) { fifo(t, filepath.Join(dir, ".engineering", "task.yaml")) }, nil,
			"cannot read the task `%DIR%/.engineering/task.yaml`: it is a named pipe, not a regular file"},
		{"task /dev/zero", nil, func(o *Options, _ string) { o.Task = "/dev/zero" },
			"cannot read the task `/dev/zero`: it is a character device, not a regular file"},
		{"project.yaml a link to /dev/zero", func(t *testing.T, dir string) {
			link(t, "/dev/zero", filepath.Join(dir, ".engineering", "project.yaml"))
		}, nil, "cannot read the project: cannot read `%DIR%/.engineering/project.yaml`: it is a character device, not a regular file"},
		{"tree document a named pipe", func(t *testing.T, dir string) { fifo(t, filepath.Join(dir, "tree", "workflows", "pipe.yaml")) }, nil,
			"pipe.yaml: cannot read the file: it is a named pipe, not a regular file [io_error]"},
		{"planning file a named pipe", func(t *testing.T, dir string) {
			fifo(t, filepath.Join(dir, ".engineering", "planning", "story", "pipe.md"))
		}, nil, "cannot read a planning file: it is a named pipe, not a regular file [store_unreadable]"},
		{"launch.json a named pipe", func(t *testing.T, dir string) {
			fifo(t, filepath.Join(dir, ".engineering", "runs", "DRIVE-1", "4", "launch.json"))
		}, func(o *Options, _ string) { o.Run = runPassing }, "launch.json`: it is a named pipe, not a regular file"},
		{"snapshot a named pipe", func(t *testing.T, dir string) {
			fifo(t, filepath.Join(dir, ".engineering", "runs", "DRIVE-1", "2", "snapshot.json"))
		}, func(o *Options, _ string) { o.Run = runLegacy }, "snapshot.json`: it is a named pipe, not a regular file"},
		{"--map a named pipe", func(t *testing.T, dir string) { fifo(t, filepath.Join(dir, "map.yaml")) },
			func(o *Options, dir string) { o.Map = filepath.Join(dir, "map.yaml") }, "map.yaml: cannot read the file: it is a named pipe, not a regular file [io_error]"},
		{"drivers/ file a named pipe, --map by id", func(t *testing.T, dir string) { fifo(t, filepath.Join(dir, "tree", "drivers", "pipe.yaml")) },
			func(o *Options, _ string) { o.Map = "fx/flow-steps" }, "pipe.yaml: cannot read the file: it is a named pipe, not a regular file [io_error]"},
		{"runs/ a link out of the project", func(t *testing.T, dir string) {
			copyDir(t, filepath.Join(dir, ".engineering", "runs"), outside)
			link(t, outside, filepath.Join(dir, ".engineering", "runs"))
		}, func(o *Options, _ string) { o.Run = runPassing }, "`%DIR%/.engineering/runs` is a symbolic link to `" + outside + "`, outside the engineering directory"},
		{"a run directory a link out of the project", func(t *testing.T, dir string) {
			run := filepath.Join(dir, ".engineering", "runs", "DRIVE-1", "4")
			copyDir(t, run, filepath.Join(outside, "4"))
			link(t, filepath.Join(outside, "4"), run)
		}, func(o *Options, _ string) { o.Run = runPassing }, "`%DIR%/.engineering/runs/DRIVE-1/4` is a symbolic link to `" + filepath.Join(outside, "4") + "`, outside the runs directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			ownFixture().Build(t, dir, projectF)
			projecttest.WriteFile(t, filepath.Join(dir, "tree", "drivers", "fx", "flow.yaml"), []byte(
				"format: aep.driver-steps/1\nid: fx/flow-steps\nworkflow: fx/flow/1\nstates:\n  implement:\n    steps:\n      - kind: operator\n        prompt: Implement it.\n"))
			if tc.place != nil {
				tc.place(t, dir)
			}
			opts := Options{Project: dir, Now: testNow, Getenv: func(string) string { return "" }}
			if tc.opts != nil {
				tc.opts(&opts, dir)
			}
			out := Decide([]byte(enter), opts)
			want := strings.ReplaceAll(tc.want, "%DIR%", dir)
			if out.Kind != Cannot || !strings.Contains(out.Message, want) {
				t.Errorf("got %+v\nwant cannot with %q", out, want)
			}
		})
	}
}

type endless struct{}

func (endless) Read(p []byte) (int, error) { return len(p), nil }

// TestConsultBoundsStdin: an endless stdin (as /dev/zero is) is cut off at
// the bound and answered "cannot", never read until memory runs out.
func TestConsultBoundsStdin(t *testing.T) {
	out := Consult(endless{}, Options{})
	if out.Kind != Cannot || !strings.Contains(out.Message, "exceeds 16777216 bytes") {
		t.Errorf("got %+v", out)
	}
}

// blocked is a stdin whose reads never return, as a pipe the writer keeps
// open without writing.
type blocked struct{ never chan struct{} }

func (b blocked) Read([]byte) (int, error) { <-b.never; return 0, io.EOF }

// TestConsultBoundsStdinTime: a stdin that never ends is answered "cannot"
// once StdinWait has passed, never waited on for ever; a stdin that ends in
// time is answered as usual.
func TestConsultBoundsStdinTime(t *testing.T) {
	out := Consult(blocked{make(chan struct{})}, Options{StdinWait: 20 * time.Millisecond})
	if out.Kind != Cannot || out.Message != "stdin did not end within 20ms: the loop writes one line and closes it" {
		t.Errorf("got %+v", out)
	}
	out = Consult(strings.NewReader(`{"hook":"before_call"}`), Options{StdinWait: time.Minute})
	if out.Kind != Proceed {
		t.Errorf("a stdin that ended: got %+v", out)
	}
	// The loop's stdin is a pipe, which is waited on where it is read.
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	_, _ = pw.WriteString(`{"hook":"before_call"}`)
	out = Consult(pr, Options{StdinWait: 20 * time.Millisecond})
	if out.Kind != Cannot || out.Message != "stdin did not end within 20ms: the loop writes one line and closes it" {
		t.Errorf("a pipe left open: got %+v", out)
	}
	done, closed, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer done.Close()
	_, _ = closed.WriteString(`{"hook":"before_call"}`)
	closed.Close()
	if out = Consult(done, Options{StdinWait: time.Minute}); out.Kind != Proceed {
		t.Errorf("a pipe closed: got %+v", out)
	}
}
