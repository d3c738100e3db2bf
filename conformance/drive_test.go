package conformance

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aepflow/aepflow/internal/hookmatrix"
	"github.com/aepflow/aepflow/project/projecttest"
)

func init() { register(driveCases...) }

var driveCases = []Case{
	// engine.md §8.7's matrix (internal/hookmatrix), asked of the binary as
	// the harness asks it: stdin, exit code, stdout, stderr, and not one
	// byte of the project or the tree changed.
	{Name: "drive/project-matrix", Check: func(t *testing.T, e *Env) {
		runMatrix(t, e, hookmatrix.OwnFixture(e.TestdataPath("project"), time.Now()), hookmatrix.Own, verb)
	}},
	// The same matrix asked of aepflow-hook, the program `aepflow hooks`
	// names: the same answers, its stderr prefixed `aepflow-hook:`.
	{Name: "drive/project-matrix-hook", Check: func(t *testing.T, e *Env) {
		runMatrix(t, e, hookmatrix.OwnFixture(e.TestdataPath("project"), time.Now()), hookmatrix.Own, hookBinary)
	}},
	{Name: "drive/project-usage", Steps: []Step{
		// Usage errors exit 1, never 2: 2 always carries a JSON reason.
		{Args: []string{"aepflow", "drive", "transition", "--nope"}, Stdin: hookmatrix.Doc("root", "enter"), Exit: 1, NoStdout: true,
			Stderr: []string{`^aepflow: drive transition: `}},
		{Args: []string{"aepflow", "drive", "transition", "--project="}, Stdin: hookmatrix.Doc("root", "enter"), Exit: 1, NoStdout: true},
		{Args: []string{"aepflow", "drive", "transition", "extra"}, Stdin: hookmatrix.Doc("root", "enter"), Exit: 1, NoStdout: true},
	}},

	// From transition/matrix_test.go: the matrix over the corpus tree
	// (fixture F of engine.md §8.7), and §8.7 #24 there.
	{Name: "drive/corpus-matrix", Shared: true, Check: func(t *testing.T, e *Env) {
		runMatrix(t, e, hookmatrix.CorpusFixture(e.TestdataPath("project"), e.SharedPath("corpus", "tree"), time.Now()), hookmatrix.Corpus, verb)
	}},
	{Name: "drive/corpus-matrix-hook", Shared: true, Check: func(t *testing.T, e *Env) {
		runMatrix(t, e, hookmatrix.CorpusFixture(e.TestdataPath("project"), e.SharedPath("corpus", "tree"), time.Now()), hookmatrix.Corpus, hookBinary)
	}},
	{Name: "drive/corpus-no-drivers", Shared: true, Check: func(t *testing.T, e *Env) {
		// A tree without drivers/ answers #2 and #19 the same: no map is
		// required without --map.
		tree := e.WorkPath("tree")
		hookmatrix.CopyDir(t, e.SharedPath("corpus", "tree"), tree, "drivers")
		fx := hookmatrix.CorpusFixture(e.TestdataPath("project"), tree, time.Now())
		dirs := hookmatrix.Projects(t, fx)
		m := hookmatrix.Matrix(hookmatrix.Corpus)
		for _, row := range append(m["02"], m["19"]...) {
			ask(t, e, fx, dirs[row.Project], row, verb)
		}
	}},
}

// hookProgram is a command line that answers the hook, and the prefix of
// its cannot-answer line.
type hookProgram struct {
	args   []string
	prefix string
}

// verb is `aepflow drive transition`; hookBinary is aepflow-hook.
var (
	verb       = hookProgram{[]string{"aepflow", "drive", "transition"}, "aepflow: drive transition: "}
	hookBinary = hookProgram{[]string{"aepflow-hook"}, "aepflow-hook: "}
)

// runMatrix asks every row of the matrix of x of the projects of fx, of
// the hook program prog.
func runMatrix(t *testing.T, e *Env, fx hookmatrix.Fixture, x hookmatrix.Expectations, prog hookProgram) {
	dirs := hookmatrix.Projects(t, fx)
	m := hookmatrix.Matrix(x)
	for _, name := range slices.Sorted(maps.Keys(m)) {
		t.Run(name, func(t *testing.T) {
			for _, row := range m[name] {
				ask(t, e, fx, dirs[row.Project], row, prog)
			}
		})
	}
	t.Run("runs-missing", func(t *testing.T) {
		if _, err := os.Stat(filepath.Join(dirs[hookmatrix.ProjectE], ".engineering", "runs")); !os.IsNotExist(err) {
			t.Errorf("project E has runs/ after the matrix (err %v)", err)
		}
	})
	t.Run("16-no-migration", func(t *testing.T) {
		legacy := filepath.Join(dirs[hookmatrix.ProjectF], ".engineering", "runs", "DRIVE-1", "2")
		for _, name := range []string{"state.json", "generations", "lock.json"} {
			if _, err := os.Stat(filepath.Join(legacy, name)); !os.IsNotExist(err) {
				t.Errorf("%s appeared in the legacy run", name)
			}
		}
	})
}

// ask runs the hook program prog for one row in dir (a project, or a
// directory holding none), with --project when the row has one, and checks
// the answer and that neither the project nor the tree changed.
func ask(t *testing.T, e *Env, fx hookmatrix.Fixture, dir string, row hookmatrix.Row, prog hookProgram) {
	t.Helper()
	args := slices.Clone(prog.args)
	if row.Project != "" {
		args = append(args, "--project", dir)
	}
	if fx.Root != "" {
		args = append(args, "--root", fx.Root)
	}
	if row.Run != "" {
		args = append(args, "--run", row.Run)
	}
	before, rootBefore := projecttest.TreeHash(t, dir), ""
	if fx.Root != "" {
		rootBefore = projecttest.TreeHash(t, fx.Root)
	}
	r := run(t, &Env{Shared: e.Shared, Testdata: e.Testdata, Bin: e.Bin, Work: dir}, Step{Args: args, Stdin: row.Stdin})
	if after := projecttest.TreeHash(t, dir); after != before {
		t.Errorf("the consultation changed the project %s", dir)
	}
	if fx.Root != "" && projecttest.TreeHash(t, fx.Root) != rootBefore {
		t.Errorf("the consultation changed the tree %s", fx.Root)
	}
	if rest, ok := strings.CutPrefix(r.Stderr, prog.prefix); ok && prog.prefix != verb.prefix {
		r.Stderr = verb.prefix + rest // the rows are worded for the verb
	}
	checkAnswer(t, row, r)
}

// checkAnswer checks a consultation's exit code and output against its
// row: a refusal is exactly `{"reason":"…"}` and a newline on stdout, a
// cannot-answer one line on stderr, a proceed nothing at all.
func checkAnswer(t *testing.T, row hookmatrix.Row, r Result) {
	t.Helper()
	where := fmt.Sprintf("%s (run %q)", row.Stdin, row.Run)
	if r.Exit != row.Want.Exit() {
		t.Fatalf("%s: exit %d, want %d\nstdout: %s\nstderr: %s", where, r.Exit, row.Want.Exit(), r.Stdout, r.Stderr)
	}
	text := ""
	switch row.Want {
	case hookmatrix.Proceed:
		if r.Stdout != "" || r.Stderr != "" {
			t.Errorf("%s: proceed printed %q / %q", where, r.Stdout, r.Stderr)
		}
	case hookmatrix.Refuse:
		var reason struct {
			Reason string `json:"reason"`
		}
		if !strings.HasSuffix(r.Stdout, "}\n") || strings.Count(r.Stdout, "\n") != 1 || json.Unmarshal([]byte(r.Stdout), &reason) != nil || r.Stderr != "" {
			t.Fatalf("%s: a refusal is one JSON object and a newline on stdout; got %q, stderr %q", where, r.Stdout, r.Stderr)
		}
		text = reason.Reason
		if row.Reason != "" && text != row.Reason {
			t.Errorf("%s: reason\n got %s\nwant %s", where, text, row.Reason)
		}
	case hookmatrix.Cannot:
		if r.Stdout != "" || !strings.HasPrefix(r.Stderr, "aepflow: drive transition: ") || strings.Count(r.Stderr, "\n") != 1 {
			t.Fatalf("%s: cannot-answer is one line on stderr; got %q, stdout %q", where, r.Stderr, r.Stdout)
		}
		text = r.Stderr
	}
	if !strings.HasPrefix(text, row.Prefix) {
		t.Errorf("%s: %q does not start with %q", where, text, row.Prefix)
	}
	for _, h := range row.Has {
		if !strings.Contains(text, h) {
			t.Errorf("%s: %q lacks %q", where, text, h)
		}
	}
}
