// Package projecttest builds run directories the way a driver commits them
// (engine.md §7.3) and fingerprints directory trees, for the tests of every
// package that reads runs through package project: the "never writes"
// checks compare TreeHash before and after a read.
//
// It is for tests only: no command imports it, and its helpers stop the
// test (t.Fatal) on any I/O error instead of returning one.
package projecttest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/aepflow/aepflow/project"
)

// Cursor is the bytes of the cursor file the writers commit; readers never
// interpret them.
var Cursor = []byte(`{"format":"aep.driver-cursor/1","step":0}` + "\n")

// SHA256 returns the lowercase hex sha256 of data, as manifests hold it.
func SHA256(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

// WriteFile writes data to path, creating its parent directories.
func WriteFile(tb testing.TB, path string, data []byte) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		tb.Fatal(err)
	}
}

// WriteGeneration commits generation gen of the run in dir: the
// generation's snapshot, Cursor and manifest, and state.json pointing at
// it. It also writes top-level snapshot.json and cursor.json compatibility
// copies that are deliberately unusable, since a reader must not read them.
func WriteGeneration(tb testing.TB, dir string, gen uint64, snapshot []byte) {
	tb.Helper()
	g := filepath.Join(dir, "generations", fmt.Sprint(gen))
	WriteFile(tb, filepath.Join(g, "snapshot.json"), snapshot)
	WriteFile(tb, filepath.Join(g, "cursor.json"), Cursor)
	manifest := fmt.Appendf(nil, `{"format":%q,"generation":%d,"snapshot_sha256":%q,"cursor_sha256":%q}`+"\n",
		project.GenerationFormat, gen, SHA256(snapshot), SHA256(Cursor))
	WriteFile(tb, filepath.Join(g, "manifest.json"), manifest)
	WriteFile(tb, filepath.Join(dir, "state.json"),
		fmt.Appendf(nil, `{"format":%q,"generation":%d,"manifest_sha256":%q}`+"\n", project.StateFormat, gen, SHA256(manifest)))
	WriteFile(tb, filepath.Join(dir, "snapshot.json"), []byte("{}\n"))
	WriteFile(tb, filepath.Join(dir, "cursor.json"), []byte("{}\n"))
}

// WriteLegacy writes a run of the legacy layout in dir: snapshot.json and
// Cursor as cursor.json, and no state.json.
func WriteLegacy(tb testing.TB, dir string, snapshot []byte) {
	tb.Helper()
	WriteFile(tb, filepath.Join(dir, "snapshot.json"), snapshot)
	WriteFile(tb, filepath.Join(dir, "cursor.json"), Cursor)
}

// TreeHash hashes everything under dir: every path, its type and
// permissions, file contents and link targets. Two equal hashes mean the
// tree is byte-identical; a missing dir hashes as "missing".
func TreeHash(tb testing.TB, dir string) string {
	tb.Helper()
	h := sha256.New()
	if _, err := os.Lstat(dir); os.IsNotExist(err) {
		return "missing"
	}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		fmt.Fprintf(h, "%s\x00%v\x00", rel, info.Mode())
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(path)
			fmt.Fprintf(h, "%s\x00", target)
		case info.Mode().IsRegular():
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "%d\x00", len(data))
			h.Write(data)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}
