package main

import (
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// dieWithParent arms the parent-death signal: when the process that
// started the companion dies (even of SIGKILL), the kernel kills the
// companion, so a layout never runs on, reparented, growing. aepflow passes
// its pid in ParentEnv; when the parent is already another process, the
// one that started us died before the signal was armed, and we exit.
func dieWithParent() {
	_ = unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(unix.SIGKILL), 0, 0, 0)
	if want, err := strconv.Atoi(os.Getenv(ParentEnv)); err == nil && os.Getppid() != want {
		fmt.Fprintf(os.Stderr, "aepflow-render: the aepflow process %d that started it has exited\n", want)
		os.Exit(exitFailed)
	}
}
