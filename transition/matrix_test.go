package transition

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/project/projecttest"
)

// expectations are the exact reasons a fixture's tree produces: (a) and
// (b) of engine.md §5.1 and the line of §8.7 #18.
type expectations struct {
	a, b, passing []string
	workflow      string
}

// leave is a leave refusal's reason: the state, then the lines grouped by
// move — each move once, its lines joined by "; ", the moves by " | ".
func (x expectations) leave(state string, lines []string) string {
	var groups []string
	last := ""
	for _, l := range lines {
		move, line, _ := strings.Cut(l, ": ")
		if move == last {
			groups[len(groups)-1] += "; " + line
			continue
		}
		groups = append(groups, l)
		last = move
	}
	return state + ": " + strings.Join(groups, " | ")
}

// stripped removes the `<C> -> <T>: ` prefixes of (a) for an enter reason.
func stripped(lines []string) string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimPrefix(l, "establish_verifiers -> implement: ")
	}
	return "establish_verifiers -> implement: " + strings.Join(out, "; ")
}

var ownExpect = expectations{
	a: []string{
		"establish_verifiers -> implement: guard: test.exists",
		"establish_verifiers -> implement: ? test.exists — unobserved: test.exists [principle tests-first]",
		"establish_verifiers -> implement: ? test.first_result == failed — unobserved: test.first_result [principle tests-first]",
	},
	b: []string{
		"specify -> declined: guard: specification.declines_the_request",
		"specify -> declined: ? specification.satisfied — unobserved: specification.satisfied [principle spec-first]",
		"specify -> declined: ? tests.unit.failed == 0 — unobserved: tests.unit.failed [principle tests-first]",
		"specify -> establish_verifiers: guard: artifact.specification.exists",
	},
	passing:  []string{"establish_verifiers -> implement: ✗ test.first_result == failed — test.first_result = passed [principle tests-first]"},
	workflow: "fx/flow",
}

// corpusExpect is engine.md §5.1 verbatim.
var corpusExpect = expectations{
	a: []string{
		"establish_verifiers -> implement: guard: test.exists",
		"establish_verifiers -> implement: ? test.exists — unobserved: test.exists [principle test-driven]",
		"establish_verifiers -> implement: ? test.first_result == failed — unobserved: test.first_result [principle test-driven]",
	},
	b: []string{
		"specify -> declined: guard: specification.declines_the_request",
		"specify -> declined: ? specification.satisfied — unobserved: specification.satisfied [principle spec-driven]",
		"specify -> declined: ? tests.unit.failed == 0 — unobserved: tests.unit.failed [principle test-driven]",
		"specify -> declined: ? regression_suite.result == passed — unobserved: regression_suite.result [principle test-driven]",
		"specify -> declined: ? evidence.first_seq.test_result < evidence.first_seq.diff — unobserved: evidence.first_seq.test_result, evidence.first_seq.diff [principle test-driven]",
		"specify -> declined: ? static_analysis.errors == 0 — unobserved: static_analysis.errors [principle static-analysis]",
		"specify -> declined: ? evidence verification (independent) — 0 of 1 required record(s) submitted [principle provenance-tracking]",
		"specify -> declined: ? evidence diff — 0 of 1 required record(s) submitted [principle provenance-tracking]",
		"specify -> declined: ? contracts.checked > 0 — unobserved: contracts.checked [principle contract-testing]",
		"specify -> declined: ? contracts.failed == 0 — unobserved: contracts.failed [principle contract-testing]",
		"specify -> declined: ? contracts.breaking_changes == 0 — unobserved: contracts.breaking_changes [principle contract-testing]",
		"specify -> declined: ? evidence.count.property_test_result >= 1 — unobserved: evidence.count.property_test_result [principle property-based-testing]",
		"specify -> decompose: guard: artifact.specification.exists",
	},
	passing:  []string{"establish_verifiers -> implement: ✗ test.first_result == failed — test.first_result = passed [principle test-driven]"},
	workflow: "adp/default",
}

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

func doc(path, moment string) string {
	return `{"hook":"transition","flow":"fx","path":"` + path + `","moment":"` + moment + `","attempt":1,"of":1,"workspace":"/ws"}`
}

func leaveDoc(path string, failed bool) string {
	f := "false"
	if failed {
		f = "true"
	}
	return `{"hook":"transition","flow":"fx","path":"` + path + `","moment":"leave","attempt":1,"of":1,"failed":` + f + `,"handoff":{},"workspace":"/ws"}`
}

// matrix returns engine.md §8.7's consultation matrix for a fixture's
// expectations, numbered as in the spec (a row may hold several answers).
func matrix(x expectations) map[string][]consultation {
	a := x.leave("establish_verifiers", x.a)
	return map[string][]consultation{
		"01": {{stdin: doc("root.implement", "enter"), project: projectF, kind: Proceed}},
		"02": {{stdin: leaveDoc("root.establish_verifiers", false), project: projectF, kind: Refuse, reason: a}},
		"03": {{stdin: leaveDoc("root.establish_verifiers", true), kind: Proceed}},
		"04": {{stdin: doc("root.polishing", "enter"), project: projectF, kind: Refuse, has: []string{"polishing", "not a state"}}},
		"05": {
			{stdin: doc("root.implement-to-verify", "enter"), project: projectF, kind: Proceed},
			{stdin: leaveDoc("root.implement-to-verify", false), project: projectF, kind: Refuse,
				prefix: "verify: verify -> adversarial_verify: guard: tests.unit.failed == 0; ",
				has:    []string{"? evidence test_result from test-runner (independent) — 0 of 1 required record(s) submitted [state adversarial_verify]"}},
		},
		"06": {{stdin: `{"hook":"before-call"}`, kind: Proceed}},
		"07": {{stdin: "this is not JSON", kind: Cannot, has: []string{"not the loop's JSON"}}},
		"08": {{stdin: doc("root.implement", "between"), project: projectF, kind: Cannot, has: []string{"between"}}},
		"09": {
			{stdin: doc("root", "enter"), project: projectF, kind: Proceed},
			{stdin: leaveDoc("root", false), project: projectF, kind: Proceed},
		},
		"10": {{stdin: doc("root.establish_verifiers", "enter"), project: projectF, run: runEmpty, kind: Proceed}},
		"11": {{stdin: doc("root.implement", "enter"), project: projectF, run: runEmpty, kind: Refuse, reason: stripped(x.a)}},
		"12": {{stdin: doc("root.verify", "enter"), project: projectF, run: runEmpty, kind: Refuse,
			has: []string{"establish_verifiers", "verify", x.workflow}}},
		"13": {{stdin: leaveDoc("root.specify", false), project: projectF, run: runEmpty, kind: Refuse,
			has: []string{"disagree", "specify", "establish_verifiers"}}},
		"14": {{stdin: leaveDoc("root", false), project: projectF, run: runEmpty, kind: Refuse, reason: a}},
		"15": {{stdin: doc("root.implement", "enter"), project: projectF, run: "DRIVE-9/9", kind: Cannot, has: []string{"no run DRIVE-9/9"}}},
		"16": {{stdin: leaveDoc("root.establish_verifiers", false), project: projectF, run: runLegacy, kind: Refuse, reason: a}},
		"17": {
			{stdin: leaveDoc("root.establish_verifiers", false), project: projectF, run: runFailing, kind: Proceed},
			{stdin: doc("root.implement", "enter"), project: projectF, run: runFailing, kind: Proceed},
		},
		"18": {{stdin: leaveDoc("root.establish_verifiers", false), project: projectF, run: runPassing, kind: Refuse,
			reason: x.leave("establish_verifiers", x.passing)}},
		"19": {{stdin: leaveDoc("root.specify", false), project: projectE, kind: Refuse, reason: x.leave("specify", x.b)}},
		"20": {
			{stdin: leaveDoc("root.specify", false), project: projectF, kind: Proceed},
			{stdin: leaveDoc("root.receive", false), project: projectE, kind: Proceed},
		},
		"21": {
			{stdin: doc("root.implement", "enter"), project: projectF, run: "../x/1", kind: Cannot, has: []string{"bad run id", "../x/1"}},
			{stdin: doc("root.implement", "enter"), project: projectF, run: "DRIVE-1/0", kind: Cannot, has: []string{"bad run id", "DRIVE-1/0"}},
		},
		"22": {{stdin: doc("root.implement", "enter"), project: projectF, run: runFlipped, kind: Cannot,
			has: []string{"sha256 check failed", "manifest.json"}}},
		"23": {{stdin: doc("root.implement", "enter"), project: projectF, run: runOnlySnap, kind: Cannot, has: []string{"incomplete state"}}},
	}
}

// projects builds one project of each kind for a fixture.
func projects(t *testing.T, fx fixture) map[string]string {
	t.Helper()
	base := t.TempDir()
	out := map[string]string{"": filepath.Join(base, "nothing")}
	if err := os.MkdirAll(out[""], 0o755); err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{projectF, projectE} {
		out[kind] = filepath.Join(base, kind)
		fx.build(t, out[kind], kind)
	}
	return out
}

// ask runs one consultation and checks that neither the project nor the
// tree changed by a single byte.
func ask(t *testing.T, fx fixture, dir string, c consultation) Outcome {
	t.Helper()
	opts := Options{Run: c.run, Root: fx.root, Now: testNow, WorkDir: dir, Getenv: func(string) string { return "" }}
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

func runMatrix(t *testing.T, fx fixture, x expectations) {
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

func TestMatrixCorpus(t *testing.T) { runMatrix(t, corpusFixture(t), corpusExpect) }

// TestMatrix24 is §8.7 #24: a tree without drivers/ (or with a broken one)
// answers #2 and #19 the same, since no map is required without --map.
func TestMatrix24(t *testing.T) {
	for _, variant := range []string{"no-drivers", "broken-drivers"} {
		t.Run(variant, func(t *testing.T) {
			fx := ownFixture()
			build := fx.build
			fx.build = func(t testing.TB, dir, kind string) {
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
	t.Run("corpus", func(t *testing.T) {
		tree := filepath.Join(t.TempDir(), "tree")
		copyDir(t, filepath.Join(sharedDir(t), "corpus", "tree"), tree, "drivers")
		fx := corpusFixture(t)
		fx.root = tree
		dirs := projects(t, fx)
		m := matrix(corpusExpect)
		for _, c := range append(m["02"], m["19"]...) {
			check(t, c, ask(t, fx, dirs[c.project], c))
		}
	})
}
