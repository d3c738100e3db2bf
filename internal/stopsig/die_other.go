//go:build !unix

package stopsig

import "os"

var stopSignals = []os.Signal{os.Interrupt}

// die exits with status 1: systems other than Unix cannot raise the signal
// again.
func die(os.Signal) { os.Exit(1) }
