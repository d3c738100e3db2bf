// Package stopsig runs a binary's cleanups when the process is told to stop
// (SIGINT, SIGTERM, SIGHUP) and then lets the process die of that signal, so
// its parent still sees "killed by SIGTERM", not a normal exit.
//
// Both binaries install it from main: aepflow removes the temporary files of
// writes in flight (fsio.RemoveTemps) and kills the aepflow-render companion
// it runs; aepflow-render removes its own temporary files. `aepflow drive`
// (the transition hook) writes nothing and runs no companion, and goes
// without it. SIGKILL cannot be
// caught; a temporary file it leaves is never mistaken for the destination,
// and the companion dies with its parent through the parent-death signal.
//
// It is not for ordinary exits: a command that finishes has no write in
// flight and no companion running.
package stopsig

import (
	"os"
	"os/signal"
	"sync/atomic"
)

// stopping is set once a stop signal has arrived.
var stopping atomic.Bool

// Signals are the signals that tell a process to stop.
var Signals = stopSignals

// Handle installs the handler: when one of Signals arrives, each cleanup
// runs in order, then the process dies of the signal (its default action
// restored and the signal raised again). A second signal during the
// cleanups waits for them.
func Handle(cleanups ...func()) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, Signals...)
	go func() {
		sig := <-c
		stopping.Store(true)
		for _, f := range cleanups {
			f()
		}
		die(sig)
	}()
}

// Exit ends the process with code, as os.Exit does, unless a stop signal
// has arrived: then the handler is running the cleanups and will end the
// process by the signal, and Exit waits for it. A command whose work fails
// because a cleanup killed it (a companion killed on SIGTERM) thus still
// dies of the signal, never of its own exit status.
func Exit(code int) {
	if stopping.Load() {
		select {}
	}
	os.Exit(code)
}
