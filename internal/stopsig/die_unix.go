//go:build unix

package stopsig

import (
	"os"
	"os/signal"
	"syscall"
	"time"
)

var stopSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

// die restores sig's default action and raises it again, so the process
// ends as its parent expects; if it survives (the signal was ignored when
// the process started), it exits with 128 + the signal number, the shell's
// convention.
func die(sig os.Signal) {
	signal.Reset(sig)
	s := sig.(syscall.Signal)
	_ = syscall.Kill(os.Getpid(), s)
	// The signal reaches one of the process's threads asynchronously;
	// give it the time to, then fall back.
	time.Sleep(time.Second)
	os.Exit(128 + int(s))
}
