//go:build !unix

package wasmcache

import "os"

// ownedSafely accepts every file where Unix owners and modes do not apply:
// os.UserCacheDir is the user's own (%LocalAppData% on Windows).
func ownedSafely(string, os.FileInfo, bool) (bool, error) { return false, nil }

// safePath accepts every directory (see ownedSafely).
func safePath(string) error { return nil }
