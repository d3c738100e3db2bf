//go:build unix

package fsio

import (
	"os"
	"syscall"
)

// openNoBlock opens path read-only with O_NONBLOCK, so that opening a named
// pipe with no writer returns at once instead of waiting; the caller refuses
// it on its mode. Reads of a regular file ignore the flag.
func openNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
