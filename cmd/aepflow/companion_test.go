//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestKillingRenderKillsTheCompanion runs the real aepflow binary on a
// companion that never finishes, kills aepflow (SIGTERM, caught: the stop
// handler kills the companion; SIGKILL, not catchable: the parent-death
// signal does), and checks that the companion died of SIGKILL instead of
// running on, reparented. The test process is a child subreaper, so the
// orphaned companion comes back to it to be waited for.
func TestKillingRenderKillsTheCompanion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "aepflow")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// The companion writes its pid, then waits forever.
	companion := filepath.Join(dir, "slow-render")
	if err := os.WriteFile(companion, []byte("#!/bin/sh\necho $$ > \"$SLOW_PIDFILE\"\nexec sleep 600\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		t.Skipf("cannot become a subreaper: %v", err)
	}
	root := renderTree(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGKILL} {
		pidfile := filepath.Join(t.TempDir(), "pid")
		out := filepath.Join(t.TempDir(), "pic.svg")
		cmd := exec.Command(bin, "render", "--id", "demo/pic", "--root", root, "--out", out)
		cmd.Env = append(os.Environ(), "AEPFLOW_RENDER="+companion, "SLOW_PIDFILE="+pidfile)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		pid := readPid(t, pidfile)
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
		if ws := cmd.ProcessState.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != sig {
			t.Errorf("%v: aepflow ended with %v; want killed by the signal", sig, cmd.ProcessState)
		}
		ended := waitEnd(t, pid)
		if ended != "signal killed" && ended != "gone" {
			t.Errorf("%v: the companion ended with %s; want killed with aepflow", sig, ended)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: %s was written", sig, out)
		}
		assertNoTemps(t, filepath.Dir(out))
	}
}

// readPid waits for the companion to write its pid into file.
func readPid(t *testing.T, file string) int {
	t.Helper()
	for range 6000 {
		data, err := os.ReadFile(file)
		if pid, perr := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && perr == nil {
			return pid
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the companion never started")
	return 0
}

// waitEnd waits for process pid to end and says how: "signal killed" when
// it is reparented to this subreaper and reaped here, "gone" when aepflow
// reaped it before dying. Should it not end, it is sent SIGTERM after a
// while, which the test then reports.
func waitEnd(t *testing.T, pid int) string {
	t.Helper()
	fallback := time.AfterFunc(30*time.Second, func() { _ = syscall.Kill(pid, syscall.SIGTERM) })
	defer fallback.Stop()
	var ws syscall.WaitStatus
	if _, err := syscall.Wait4(pid, &ws, 0, nil); err == syscall.ECHILD {
		if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); err == nil {
			return "still running, not a child of the test"
		}
		return "gone"
	} else if err != nil {
		t.Fatalf("wait4 %d: %v", pid, err)
	}
	if ws.Signaled() {
		return "signal " + ws.Signal().String()
	}
	return "exit status " + strconv.Itoa(ws.ExitStatus())
}

// assertNoTemps fails when dir holds a temporary file of a write.
func assertNoTemps(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}
