// Package atomicfile writes files so that readers see either the old bytes
// or the new ones, never a half-written file: the data goes to a temporary
// file in the same directory, which is synced and then renamed over the
// target.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// Write replaces path with data atomically. The file gets mode perm (before
// the umask) when it is new and keeps its mode when it exists. On any error
// the target is untouched and the temporary file removed.
func Write(path string, data []byte, perm os.FileMode) (err error) {
	if info, statErr := os.Stat(path); statErr == nil {
		if info.IsDir() {
			return fmt.Errorf("%s is a directory", path)
		}
		perm = info.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Chmod(perm); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
