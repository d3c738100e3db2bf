//go:build unix

package stopsig

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// helperEnv makes the test binary act as a process that installs the
// handler with a cleanup writing a marker file, says "ready" and waits.
const helperEnv = "STOPSIG_HELPER_MARKER"

func TestMain(m *testing.M) {
	if marker := os.Getenv(helperEnv); marker != "" {
		Handle(func() { _ = os.WriteFile(marker, []byte("cleaned"), 0o644) })
		os.Stdout.WriteString("ready\n")
		select {}
	}
	os.Exit(m.Run())
}

// TestCleanupsRunThenTheProcessDiesOfTheSignal kills a real process with
// each stop signal: the cleanup ran, and the process ended by that signal.
func TestCleanupsRunThenTheProcessDiesOfTheSignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
		marker := filepath.Join(t.TempDir(), "marker")
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), helperEnv+"="+marker)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "ready\n" {
			t.Fatalf("helper said %q, %v", line, err)
		}
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		err = cmd.Wait()
		ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
		if !ok || !ws.Signaled() || ws.Signal() != sig {
			t.Errorf("%v: the process ended with %v (%v); want killed by the signal", sig, cmd.ProcessState, err)
		}
		if data, err := os.ReadFile(marker); err != nil || string(data) != "cleaned" {
			t.Errorf("%v: the cleanup did not run: %q, %v", sig, data, err)
		}
	}
}
