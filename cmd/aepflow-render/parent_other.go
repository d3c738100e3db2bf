//go:build !linux

package main

// dieWithParent does nothing where there is no parent-death signal; aepflow
// kills the companion itself when it is told to stop.
func dieWithParent() {}
