package transition

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/internal/hookmatrix"
	"github.com/aepflow/aepflow/project/projecttest"
)

// The matrix and its expectations live in internal/hookmatrix, shared with
// package conformance, which asks the same rows of the aepflow binary.
var ownExpect = hookmatrix.Own

// consultation is one row of the matrix: a stdin document asked of a
// project with flags, and the answer.
type consultation struct {
	stdin   string
	project string // projectF, projectE or "" (no project at all)
	run     string
	mutate  func(*Options)
	kind    Kind
	reason  string   // exact reason (Refuse) when set
	has     []string // substrings of the reason or message
	prefix  string   // reason prefix
}

func doc(path, moment string) string           { return hookmatrix.Doc(path, moment) }
func leaveDoc(path string, failed bool) string { return hookmatrix.LeaveDoc(path, failed) }

// matrix returns engine.md §8.7's consultation matrix for a fixture's
// expectations (hookmatrix.Matrix), as consultations.
func matrix(x hookmatrix.Expectations) map[string][]consultation {
	out := map[string][]consultation{}
	for name, rows := range hookmatrix.Matrix(x) {
		for _, r := range rows {
			out[name] = append(out[name], consultation{stdin: r.Stdin, project: r.Project, run: r.Run,
				kind: Kind(r.Want), reason: r.Reason, has: r.Has, prefix: r.Prefix})
		}
	}
	return out
}

// projects builds one project of each kind for a fixture.
func projects(t *testing.T, fx fixture) map[string]string { return hookmatrix.Projects(t, fx) }

// ask runs one consultation and checks that neither the project nor the
// tree changed by a single byte.
func ask(t *testing.T, fx fixture, dir string, c consultation) Outcome {
	t.Helper()
	opts := Options{Run: c.run, Root: fx.Root, Now: testNow, WorkDir: dir, Getenv: func(string) string { return "" }}
	if c.project != "" {
		opts.Project = dir
	}
	if c.mutate != nil {
		c.mutate(&opts)
	}
	before, rootBefore := projecttest.TreeHash(t, dir), ""
	if opts.Root != "" {
		rootBefore = projecttest.TreeHash(t, opts.Root)
	}
	out := Decide([]byte(c.stdin), opts)
	if after := projecttest.TreeHash(t, dir); after != before {
		t.Errorf("the consultation changed the project %s", dir)
	}
	if opts.Root != "" && projecttest.TreeHash(t, opts.Root) != rootBefore {
		t.Errorf("the consultation changed the tree %s", opts.Root)
	}
	return out
}

func check(t *testing.T, c consultation, out Outcome) {
	t.Helper()
	if out.Kind != c.kind {
		t.Fatalf("%s: got %+v, want kind %d", c.stdin, out, c.kind)
	}
	text := out.Reason + out.Message
	if c.reason != "" && out.Reason != c.reason {
		t.Errorf("%s: reason\n got %s\nwant %s", c.stdin, out.Reason, c.reason)
	}
	if !strings.HasPrefix(text, c.prefix) {
		t.Errorf("%s: %q does not start with %q", c.stdin, text, c.prefix)
	}
	for _, h := range c.has {
		if !strings.Contains(text, h) {
			t.Errorf("%s: %q lacks %q", c.stdin, text, h)
		}
	}
	if strings.ContainsAny(out.Message, "\n\r") {
		t.Errorf("the message is not one line: %q", out.Message)
	}
}

func runMatrix(t *testing.T, fx fixture, x hookmatrix.Expectations) {
	dirs := projects(t, fx)
	for name, cs := range matrix(x) {
		t.Run(name, func(t *testing.T) {
			for _, c := range cs {
				check(t, c, ask(t, fx, dirs[c.project], c))
			}
		})
	}
	t.Run("runs-missing", func(t *testing.T) {
		if _, err := os.Stat(filepath.Join(dirs[projectE], ".engineering", "runs")); !os.IsNotExist(err) {
			t.Errorf("project E has runs/ after the matrix (err %v)", err)
		}
	})
	t.Run("16-no-migration", func(t *testing.T) {
		legacy := filepath.Join(dirs[projectF], ".engineering", "runs", "DRIVE-1", "2")
		for _, name := range []string{"state.json", "generations", "lock.json"} {
			if _, err := os.Stat(filepath.Join(legacy, name)); !os.IsNotExist(err) {
				t.Errorf("%s appeared in the legacy run", name)
			}
		}
	})
}

func TestMatrixOwnFixture(t *testing.T) { runMatrix(t, ownFixture(), ownExpect) }

// TestMatrix24 is §8.7 #24: a tree without drivers/ (or with a broken one)
// answers #2 and #19 the same, since no map is required without --map.
func TestMatrix24(t *testing.T) {
	for _, variant := range []string{"no-drivers", "broken-drivers"} {
		t.Run(variant, func(t *testing.T) {
			fx := ownFixture()
			build := fx.Build
			fx.Build = func(t testing.TB, dir, kind string) {
				build(t, dir, kind)
				drivers := filepath.Join(dir, "tree", "drivers")
				if err := os.RemoveAll(drivers); err != nil {
					t.Fatal(err)
				}
				if variant == "broken-drivers" {
					projecttest.WriteFile(t, filepath.Join(drivers, "broken.yaml"), []byte("format: [unclosed\n"))
				}
			}
			dirs := projects(t, fx)
			m := matrix(ownExpect)
			for _, c := range append(m["02"], m["19"]...) {
				check(t, c, ask(t, fx, dirs[c.project], c))
			}
		})
	}
}

// TestMatrixAnswersAreKinds: the matrix's answers convert to this
// package's kinds one for one, and their exit codes are the hook's.
func TestMatrixAnswersAreKinds(t *testing.T) {
	for _, c := range []struct {
		a    hookmatrix.Answer
		k    Kind
		exit int
	}{{hookmatrix.Proceed, Proceed, 0}, {hookmatrix.Refuse, Refuse, 2}, {hookmatrix.Cannot, Cannot, 1}} {
		if Kind(c.a) != c.k || c.a.Exit() != c.exit {
			t.Errorf("answer %d: kind %d, exit %d; want kind %d, exit %d", c.a, Kind(c.a), c.a.Exit(), c.k, c.exit)
		}
	}
}
