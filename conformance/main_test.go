package conformance

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/internal/testkit"
	"github.com/aepflow/aepflow/internal/testshared"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// Case is one conformance case: Steps run as a user runs them, or a Check
// through the packages' API, or both (the Check runs after the Steps).
type Case struct {
	// Name is `<capability>/<what>`; it names the subtest.
	Name string
	// Shared says the case reads ../shared; it runs under TestCorpus.
	Shared bool
	// Setup, when set, prepares the case's work directory.
	Setup func(t *testing.T, e *Env)
	// Steps are commands run in order in the work directory.
	Steps []Step
	// Check, when set, is a check through the packages' API.
	Check func(t *testing.T, e *Env)
}

// Step is one command and what it must do.
type Step struct {
	// Args are the binary (`aepflow` or `aepflow-render`) and its
	// arguments; $SHARED, $TESTDATA, $WORK and $BIN expand.
	Args []string
	// Stdin is the command's standard input ($-names expand).
	Stdin string
	// Env holds extra KEY=value entries of the environment.
	Env []string
	// Dir is the directory the command runs in, relative to $WORK (""
	// for $WORK itself).
	Dir string
	// Exit is the exit code wanted.
	Exit int
	// Golden, when set, is the file under testdata/ holding the exact
	// standard output, absolute paths folded back into their $-names.
	Golden string
	// Stdout and Stderr are regular expressions (multi-line) each output
	// must match.
	Stdout, Stderr []string
	// NoStdout and NoStderr say the output must be empty.
	NoStdout, NoStderr bool
	// Files maps a file the step must have written (relative to $WORK) to
	// the golden file under testdata/ holding its exact bytes, paths
	// folded.
	Files map[string]string
	// Then, when set, asserts more about the result.
	Then func(t *testing.T, e *Env, r Result)
}

// Result is what a step's command did.
type Result struct {
	Exit           int
	Stdout, Stderr string
}

// Env is where a case runs.
type Env struct {
	// Shared is ../shared ("" where it is absent), Testdata the project's
	// ../testdata, Bin the directory of the built binaries; all absolute.
	Shared, Testdata, Bin string
	// Work is the case's own working directory.
	Work string
}

// SharedPath returns the absolute path of elem below the shared folder.
func (e *Env) SharedPath(elem ...string) string {
	return filepath.Join(append([]string{e.Shared}, elem...)...)
}

// TestdataPath returns the absolute path of elem below ../testdata.
func (e *Env) TestdataPath(elem ...string) string {
	return filepath.Join(append([]string{e.Testdata}, elem...)...)
}

// WorkPath returns the absolute path of elem below the work directory.
func (e *Env) WorkPath(elem ...string) string {
	return filepath.Join(append([]string{e.Work}, elem...)...)
}

// Expand replaces $SHARED, $TESTDATA, $WORK and $BIN in s.
func (e *Env) Expand(s string) string {
	return strings.NewReplacer("$SHARED", e.Shared, "$TESTDATA", e.Testdata, "$WORK", e.Work, "$BIN", e.Bin).Replace(s)
}

// Fold replaces the absolute paths of the environment in s by their
// $-names, longest first, so outputs compare across machines.
func (e *Env) Fold(s string) string {
	pairs := [][2]string{{e.Work, "$WORK"}, {e.Bin, "$BIN"}, {e.Testdata, "$TESTDATA"}}
	if e.Shared != "" {
		pairs = append(pairs, [2]string{e.Shared, "$SHARED"})
	}
	slices.SortFunc(pairs, func(a, b [2]string) int { return len(b[0]) - len(a[0]) })
	for _, p := range pairs {
		s = strings.ReplaceAll(s, p[0], p[1])
	}
	return s
}

// cases holds every registered case.
var cases []Case

// register adds a capability's table to the suite; each table file calls
// it from its init function.
func register(table ...Case) { cases = append(cases, table...) }

// suite is what TestMain prepared.
var suite struct {
	bin, testdata, shared string
	sharedErr             error
}

// TestMain builds the binaries once, into a temporary directory, and finds
// ../testdata and ../shared.
func TestMain(m *testing.M) {
	flag.Parse()
	bin, err := os.MkdirTemp("", "aepflow-conformance-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		os.Exit(3)
	}
	code := func() int {
		defer os.RemoveAll(bin)
		if err := build(bin); err != nil {
			fmt.Fprintln(os.Stderr, "conformance:", err)
			return 3
		}
		suite.bin = bin
		suite.testdata, err = filepath.Abs(filepath.Join("..", "testdata"))
		if err != nil {
			fmt.Fprintln(os.Stderr, "conformance:", err)
			return 3
		}
		suite.shared, suite.sharedErr = testshared.Find()
		return m.Run()
	}()
	os.Exit(code)
}

// build compiles cmd/aepflow, cmd/aepflow-hook and cmd/aepflow-render into
// dir.
func build(dir string) error {
	for _, pkg := range []string{"./cmd/aepflow", "./cmd/aepflow-hook", "./cmd/aepflow-render"} {
		cmd := exec.Command("go", "build", "-o", filepath.Join(dir, filepath.Base(pkg)), pkg)
		cmd.Dir = ".."
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
		}
	}
	return nil
}

// TestOwn runs every case over the project's own fixtures (../testdata).
func TestOwn(t *testing.T) { runCases(t, false, "") }

// TestCorpus runs every case over ../shared, or skips them all with one
// message where it is absent.
func TestCorpus(t *testing.T) {
	if suite.sharedErr != nil {
		n := 0
		for _, c := range cases {
			if c.Shared {
				n++
			}
		}
		t.Skipf("../shared is absent (%v): the %d corpus cases are skipped; set %s to run them", suite.sharedErr, n, testshared.EnvVar)
	}
	runCases(t, true, suite.shared)
}

func runCases(t *testing.T, shared bool, sharedDir string) {
	sorted := slices.Clone(cases)
	slices.SortStableFunc(sorted, func(a, b Case) int { return strings.Compare(a.Name, b.Name) })
	for _, c := range sorted {
		if c.Shared != shared {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			e := &Env{Shared: sharedDir, Testdata: suite.testdata, Bin: suite.bin, Work: t.TempDir()}
			if c.Setup != nil {
				c.Setup(t, e)
			}
			for i, s := range c.Steps {
				runStep(t, e, i, s)
			}
			if c.Check != nil {
				c.Check(t, e)
			}
		})
	}
}

// TestCaseNames: every case is named `<capability>/<what>`, once.
func TestCaseNames(t *testing.T) {
	seen := map[string]bool{}
	name := regexp.MustCompile(`^[a-z][a-z-]*/[a-z0-9][a-z0-9./-]*$`)
	for _, c := range cases {
		if !name.MatchString(c.Name) {
			t.Errorf("case %q is not named <capability>/<what>", c.Name)
		}
		key := fmt.Sprintf("%v:%s", c.Shared, c.Name)
		if seen[key] {
			t.Errorf("case %q is registered twice", c.Name)
		}
		seen[key] = true
		if len(c.Steps) == 0 && c.Check == nil {
			t.Errorf("case %q runs nothing", c.Name)
		}
	}
}

// runStep runs one step and checks what it did.
func runStep(t *testing.T, e *Env, i int, s Step) {
	t.Helper()
	r := run(t, e, s)
	where := fmt.Sprintf("step %d (%s)", i+1, strings.Join(s.Args, " "))
	if r.Exit != s.Exit {
		t.Fatalf("%s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", where, r.Exit, s.Exit, r.Stdout, r.Stderr)
	}
	if s.Golden != "" {
		testkit.Golden(t, filepath.Join("testdata", s.Golden), []byte(e.Fold(r.Stdout)), *update)
	}
	for _, re := range s.Stdout {
		if !regexp.MustCompile("(?m)" + re).MatchString(r.Stdout) {
			t.Errorf("%s: stdout does not match %q:\n%s", where, re, r.Stdout)
		}
	}
	for _, re := range s.Stderr {
		if !regexp.MustCompile("(?m)" + re).MatchString(r.Stderr) {
			t.Errorf("%s: stderr does not match %q:\n%s", where, re, r.Stderr)
		}
	}
	if s.NoStdout && r.Stdout != "" {
		t.Errorf("%s: stdout is not empty:\n%s", where, r.Stdout)
	}
	if s.NoStderr && r.Stderr != "" {
		t.Errorf("%s: stderr is not empty:\n%s", where, r.Stderr)
	}
	for file, golden := range s.Files {
		data, err := os.ReadFile(e.WorkPath(file))
		if err != nil {
			t.Errorf("%s: %v", where, err)
			continue
		}
		testkit.Golden(t, filepath.Join("testdata", golden), []byte(e.Fold(string(data))), *update)
	}
	if s.Then != nil {
		s.Then(t, e, r)
	}
}

// run runs a step's command in the work directory, with the built binaries
// first on PATH and no AEP_PROJECT_DIR inherited.
func run(t *testing.T, e *Env, s Step) Result {
	t.Helper()
	if len(s.Args) == 0 {
		t.Fatal("a step without a command")
	}
	args := make([]string, len(s.Args))
	for i, a := range s.Args {
		args[i] = e.Expand(a)
	}
	cmd := exec.Command(filepath.Join(e.Bin, args[0]), args[1:]...)
	cmd.Dir = filepath.Join(e.Work, s.Dir)
	cmd.Stdin = strings.NewReader(e.Expand(s.Stdin))
	env := []string{"PATH=" + e.Bin + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + e.Work}
	for _, kv := range s.Env {
		env = append(env, e.Expand(kv))
	}
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := Result{Stdout: stdout.String(), Stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		r.Exit = exit.ExitCode()
	case err != nil:
		t.Fatalf("%s: %v", strings.Join(args, " "), err)
	}
	return r
}

// writeFile writes body to path below the work directory, creating its
// parents.
func writeFile(t *testing.T, e *Env, path, body string) {
	t.Helper()
	p := e.WorkPath(path)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// readFile reads a file a case needs, failing the test when it cannot.
func readFile(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
