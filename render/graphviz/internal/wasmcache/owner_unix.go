//go:build unix

package wasmcache

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// ownedSafely checks that info, found at path, is owned by this process's
// user (or root, for an ancestor) and writable by no one else, unless it
// is a sticky directory (/tmp) that others may write but not rename in.
// It returns whether others may write into it.
func ownedSafely(path string, info os.FileInfo, allowRoot bool) (shared bool, err error) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return false, fmt.Errorf("%s: no owner to check", path)
	}
	uid := uint32(os.Geteuid())
	if st.Uid != uid && !(allowRoot && st.Uid == 0) {
		return false, fmt.Errorf("%s is owned by another user (uid %d)", path, st.Uid)
	}
	if info.Mode().Perm()&0o022 != 0 {
		if !info.IsDir() || info.Mode()&os.ModeSticky == 0 {
			return false, fmt.Errorf("%s is writable by other users (mode %v)", path, info.Mode().Perm())
		}
		return true, nil
	}
	return false, nil
}

// safePath checks every directory from the root down to dir, which has no
// symbolic link in it: dir is owned by this user, each ancestor by this
// user or root, and none is writable by anyone else, unless it is sticky
// and the next one is owned by this user. Then no other user can put or
// replace anything below dir.
func safePath(dir string) error {
	var chain []string
	for p := dir; ; p = filepath.Dir(p) {
		chain = append(chain, p)
		if filepath.Dir(p) == p {
			break
		}
	}
	shared := false
	for i := len(chain) - 1; i >= 0; i-- {
		info, err := os.Lstat(chain[i])
		if err != nil {
			return err
		}
		if !info.IsDir() {
			return fmt.Errorf("%s is not a directory", chain[i])
		}
		// Below a sticky directory, only what this user owns is safe.
		if shared, err = ownedSafely(chain[i], info, !shared && i > 0); err != nil {
			return err
		}
	}
	return nil
}
