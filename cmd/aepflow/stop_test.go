//go:build linux

package main

import (
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestStopHandlerWhereNeeded: every command but the hook's gets the stop
// handler (it may write files or run the companion); `aepflow drive` does
// not, and the harness still sees it die of the signal it was sent.
func TestStopHandlerWhereNeeded(t *testing.T) {
	for _, args := range [][]string{nil, {"render"}, {"flow"}, {"--color", "never", "drive", "transition"}, {"validate"}} {
		if !needsStopHandler(args) {
			t.Errorf("%q: no stop handler", args)
		}
	}
	if needsStopHandler([]string{"drive", "transition"}) {
		t.Error("`drive transition` installs the stop handler")
	}
	if testing.Short() {
		t.Skip("builds a binary")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	bin := filepath.Join(t.TempDir(), "aepflow")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
		cmd := exec.Command(bin, "drive", "transition", "--project", t.TempDir())
		stdin, err := cmd.StdinPipe() // never written: the hook waits on it
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond) // let it reach the read; a signal before that ends it the same way
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
		stdin.Close()
		if ws := cmd.ProcessState.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != sig {
			t.Errorf("%v: the hook ended with %v; want killed by the signal", sig, cmd.ProcessState)
		}
	}
}
