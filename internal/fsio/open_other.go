//go:build !unix

package fsio

import "os"

// openNoBlock opens path read-only. Systems other than Unix have no named
// pipes in the file system to block on.
func openNoBlock(path string) (*os.File, error) { return os.Open(path) }
