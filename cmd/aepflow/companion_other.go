//go:build !linux

package main

import "os/exec"

// dieWithParent does nothing where there is no parent-death signal; the
// stop handler kills the companion when aepflow is told to stop.
func dieWithParent(*exec.Cmd) {}
