package main

import (
	"os/exec"
	"syscall"
)

// dieWithParent makes the kernel kill the companion when aepflow dies,
// even of SIGKILL: the signal is armed in the child before it runs.
func dieWithParent(c *exec.Cmd) {
	c.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
