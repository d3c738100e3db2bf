//go:build linux

package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestDiesWithItsParent runs the real companion under a shell, kills the
// shell with SIGKILL while the companion waits for its DOT, and checks
// that the kernel killed the companion too (the parent-death signal). The
// test process is made a child subreaper, so the orphaned companion is
// reparented to it and its end can be waited for.
func TestDiesWithItsParent(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	bin := filepath.Join(t.TempDir(), "aepflow-render")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		t.Skipf("cannot become a subreaper: %v", err)
	}
	stdin, feed, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer feed.Close()
	// `; :` keeps the shell from exec'ing the companion: the shell stays
	// its parent, and passes its pid as aepflow does.
	sh := exec.Command("sh", "-c", ParentEnv+`=$$ "$0"; :`, bin)
	sh.Stdin = stdin
	if err := sh.Start(); err != nil {
		t.Fatal(err)
	}
	stdin.Close()
	pid := childOf(t, sh.Process.Pid)
	// Kill the parent only once the companion is past its start (the
	// parent-death signal is armed first thing in main) and waits for its
	// DOT on stdin.
	waitReading(t, pid)
	if err := sh.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = sh.Wait()
	// Should the signal not come, end the companion another way after a
	// while (it would otherwise wait for its DOT forever): it then exits
	// of that signal, and the test fails saying so.
	fallback := time.AfterFunc(30*time.Second, func() { _ = syscall.Kill(pid, syscall.SIGTERM) })
	defer fallback.Stop()
	var ws syscall.WaitStatus
	if _, err := syscall.Wait4(pid, &ws, 0, nil); err != nil {
		t.Fatalf("wait for the companion %d: %v", pid, err)
	}
	if !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Errorf("the companion ended with %s, not killed by its parent's death (SIGKILL)", describe(ws))
	}
}

// childOf returns the pid of the one child of process parent, waiting for
// it to be started.
func childOf(t *testing.T, parent int) int {
	t.Helper()
	file := "/proc/" + strconv.Itoa(parent) + "/task/" + strconv.Itoa(parent) + "/children"
	for range 3000 {
		f, err := os.Open(file)
		if err != nil {
			t.Skipf("cannot read %s: %v", file, err)
		}
		data, _ := io.ReadAll(f)
		f.Close()
		if fields := strings.Fields(string(data)); len(fields) > 0 {
			pid, _ := strconv.Atoi(fields[0])
			return pid
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("process %d started no child", parent)
	return 0
}

// waitReading waits until one of process pid's threads waits for standard
// input (waitsForStdin, from /proc/PID/task/TID/syscall).
func waitReading(t *testing.T, pid int) {
	t.Helper()
	tasks := "/proc/" + strconv.Itoa(pid) + "/task"
	for range 6000 {
		entries, err := os.ReadDir(tasks)
		if err != nil {
			t.Fatalf("the companion %d is gone before its parent died: %v", pid, err)
		}
		for _, e := range entries {
			data, err := os.ReadFile(filepath.Join(tasks, e.Name(), "syscall"))
			if err != nil {
				t.Skipf("cannot read a thread's system call: %v", err)
			}
			if waitsForStdin(string(data)) {
				return
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the companion %d never read its stdin", pid)
}

// waitsForStdin reports whether a thread's /proc syscall line shows it
// waiting for standard input: in read(0, …), or in poll(2), which the
// companion's bounded stdin waits in on Linux before it reads (ppoll on
// every architecture, poll where it exists: 7 on amd64, which the x/sys
// constants do not name on every architecture).
func waitsForStdin(line string) bool {
	switch {
	case strings.HasPrefix(line, strconv.Itoa(unix.SYS_READ)+" 0x0 "),
		strings.HasPrefix(line, strconv.Itoa(unix.SYS_PPOLL)+" "),
		runtime.GOARCH == "amd64" && strings.HasPrefix(line, "7 "):
		return true
	}
	return false
}

// describe says how a process ended.
func describe(ws syscall.WaitStatus) string {
	if ws.Signaled() {
		return "signal " + ws.Signal().String()
	}
	return "exit status " + strconv.Itoa(ws.ExitStatus())
}
