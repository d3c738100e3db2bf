package conformance

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// movedFixtures are the places fixtures used to live before they moved to
// ../testdata (shared by several packages) or to this package's testdata
// (corpus goldens). A fixture added at one of them, say by a branch merged
// after the move, would be read by no test at all; this test says where it
// belongs instead.
var movedFixtures = []struct{ old, now string }{
	{"workflow/testdata/ok", "testdata/workflow/ok"},
	{"workflow/testdata/err", "testdata/workflow/err"},
	{"stepmap/testdata/ok", "testdata/stepmap/ok"},
	{"stepmap/testdata/err", "testdata/stepmap/err"},
	{"protocol/testdata/protocol", "testdata/protocol/protocol"},
	{"protocol/testdata/principle", "testdata/protocol/principle"},
	{"protocol/testdata/profile", "testdata/protocol/profile"},
	{"protocol/testdata/lifecycle", "testdata/protocol/lifecycle"},
	{"transition/testdata/project", "testdata/project"},
	{"engine/testdata/drive", "testdata/drive"},
	{"engine/testdata/snapshot", "testdata/snapshot"},
	{"engine/testdata/report", "conformance/testdata/evaluate/report"},
	{"trace/testdata/specs", "testdata/trace/specs"},
	{"trace/testdata/transcripts", "testdata/trace/transcripts"},
	{"compiler/testdata/project/touching.body", "testdata/projection/touching.body"},
	{"compiler/testdata/project/dfs.body", "testdata/projection/dfs.body"},
	{"compiler/testdata/project/self.body", "testdata/projection/self.body"},
	{"compiler/testdata/project/bare.body", "testdata/projection/bare.body"},
	{"compiler/testdata/project/bare-map.body", "testdata/projection/bare-map.body"},
	{"flow/testdata/write/demo-bare.yaml", "testdata/projection/bare-map.body"},
	{"flow/testdata/write/demo-dfs.yaml", "testdata/projection/dfs.body"},
	{"flow/testdata/write/demo-self.yaml", "testdata/projection/self.body"},
	{"flow/testdata/write/demo-touching.yaml", "testdata/projection/touching.body"},
	{"render/testdata/adp-default-clusters.dot.golden", "conformance/testdata/render/adp-default-clusters.dot.golden"},
	{"render/testdata/adp-default-overlay.mmd.golden", "conformance/testdata/render/adp-default-overlay.mmd.golden"},
}

// TestFixturesLiveWhereTheyAreRead: no file is left at a fixture's old
// place (an empty directory git does not track is no fixture), and the new
// place exists.
func TestFixturesLiveWhereTheyAreRead(t *testing.T) {
	for _, m := range movedFixtures {
		if file := anyFile(filepath.Join("..", m.old)); file != "" {
			t.Errorf("%s exists again, but no test reads it: fixtures there belong in %s", file, m.now)
		}
		if _, err := os.Stat(filepath.Join("..", m.now)); err != nil {
			t.Errorf("%s: %v", m.now, err)
		}
	}
}

// anyFile returns a regular file at or below path, or "".
func anyFile(path string) string {
	found := ""
	_ = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			found = p
			return fs.SkipAll
		}
		return nil
	})
	return found
}
