package transition

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/project/projecttest"
)

func TestParseInput(t *testing.T) {
	tests := []struct {
		in   string
		want Input
		err  string
	}{
		{in: `{"hook":"transition","flow":"adp/default","path":"root.implement-to-review","moment":"leave","attempt":2,"of":3,"failed":false,"handoff":{"a":[1,{"b":null}]},"workspace":"/abs/ws"}` + "\n",
			want: Input{Hook: "transition", Path: "root.implement-to-review", Moment: "leave"}},
		{in: ` {"hook":"x"} `, want: Input{Hook: "x"}},
		{in: `{"failed":true,"hook":"transition"}`, want: Input{Hook: "transition", Failed: true}},
		{in: `{"hook":"h","path":"p\u00e9\n","moment":"enter"}`, want: Input{Hook: "h", Path: "pé\n", Moment: "enter"}},
		{in: `{"path":"root"}`, err: `missing key "hook"`},
		{in: `{"hook":1}`, err: `"hook" must be a string, found a number`},
		{in: `{"hook":null}`, err: `"hook" must be a string, found null`},
		{in: `{"hook":"t","path":["root"]}`, err: `"path" must be a string, found an array`},
		{in: `{"hook":"t","failed":"true"}`, err: `"failed" must be a boolean, found a string`},
		{in: `{"hook":"t","failed":null}`, err: `"failed" must be a boolean, found null`},
		{in: `{"hook":"t","hook":"u"}`, err: `duplicate key "hook"`},
		{in: `{"hook":"t"} x`, err: "trailing"},
		{in: `{"hook":"t"}{}`, err: "trailing"},
		{in: `["hook"]`, err: "not a JSON object"},
		{in: ``, err: "empty"},
		{in: `{"hook":"t"`, err: "ends early"},
		{in: "{\"hook\":\"\xff\"}", err: "UTF-8"},
		{in: `this is not JSON`, err: "invalid character"},
		// A lone surrogate escape is no character: serde_json refuses a key
		// or a string field holding one (encoding/json read U+FFFD, and a
		// path or hook naming nothing proceeded); a pair, U+FFFD itself and
		// a skipped value are read.
		{in: `{"hook":"transition","path":"root.\ud800","moment":"leave"}`, err: "`\\ud800` is half of a UTF-16 surrogate pair"},
		{in: `{"hook":"transition\udc00","path":"root","moment":"enter"}`, err: "`\\udc00` is half"},
		{in: `{"hook":"transition","moment":"enter\ud83d\u0041"}`, err: "`\\ud83d` is half"},
		{in: `{"hook":"transition","\ud800":1,"moment":"enter"}`, err: "`\\ud800` is half"},
		{in: `{"hook":"h","path":"\ud83d\ude00\ufffd\\ud800"}`, want: Input{Hook: "h", Path: "\U0001F600\uFFFD\\ud800"}},
		{in: `{"hook":"h","handoff":{"x":"\ud800"}}`, want: Input{Hook: "h"}},
	}
	for _, tt := range tests {
		got, err := ParseInput([]byte(tt.in))
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseInput(%q) = %+v, %v; want error with %q", tt.in, got, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseInput(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
	}
}

func TestFlowState(t *testing.T) {
	tests := []struct{ path, moment, want string }{
		{"", "enter", ""},
		{"root", "enter", ""},
		{"root.specify", "enter", "specify"},
		{"specify", "leave", "specify"},
		{"root.implement-to-review", "enter", "implement"},
		{"root.implement-to-review", "leave", "review"},
		{"root.implement-to-review.verify", "leave", "verify"},
		{"root.verify-again", "enter", "verify"},
		{"root.verify-again", "leave", "verify"},
		{"root.a-to-b-again", "leave", "a-to-b"}, // -again is checked first
		{"root.a-to-b-to-c", "leave", "b-to-c"},  // after the first -to-
		{"root.a-to-b-to-c", "enter", "a"},       // before the first -to-
		{"root.establish_verifiers", "enter", "establish_verifiers"},
		{"root.Bad", "enter", ""},
		{"root.", "enter", ""},
		{"root.x.root", "enter", ""},
		{"root.-again", "enter", ""},
		{"root.polishing", "enter", "polishing"}, // valid id, maybe not a state
	}
	for _, tt := range tests {
		if got := FlowState(tt.path, tt.moment); got != tt.want {
			t.Errorf("FlowState(%q, %q) = %q, want %q", tt.path, tt.moment, got, tt.want)
		}
	}
}

// TestRefusalJSON: the refusal is exactly one object and a newline, its
// reason escaped as serde_json escapes (package serdejson).
func TestRefusalJSON(t *testing.T) {
	if got := string(RefusalJSON("a \"b\"\n<&>")); got != `{"reason":"a \"b\"\n<&>"}`+"\n" {
		t.Errorf("RefusalJSON = %q", got)
	}
}

// TestLaunchJSON: launch.json fills --task and --root the caller left out;
// flags win; its map is never resolved.
func TestLaunchJSON(t *testing.T) {
	dir := t.TempDir()
	ownFixture().Build(t, dir, projectF)
	run := filepath.Join(dir, ".engineering", "runs", "DRIVE-1", "1")
	// The project's task pins a profile absent from the tree: only the
	// launch task can be resolved.
	projecttest.WriteFile(t, filepath.Join(dir, ".engineering", "task.yaml"), []byte("id: DRIVE-1\nkind: feature\nobjective: x\nprotocol: fx/1\nprofile: fx.missing\n"))
	data, _ := os.ReadFile(filepath.Join(projectDir, ".engineering", "task.yaml"))
	projecttest.WriteFile(t, filepath.Join(dir, "launch-task.yaml"), data)
	projecttest.WriteFile(t, filepath.Join(run, "launch.json"), []byte(`{"task_document":"launch-task.yaml","root":"tree","plugin_dirs":["/nowhere"],"map":"no/such-map","other":1}`))
	c := matrix(ownExpect)["14"][0]
	check(t, c, ask(t, ownFixture(), dir, c))

	c.mutate = func(o *Options) { o.Task = filepath.Join(dir, ".engineering", "task.yaml") }
	c.kind, c.reason, c.has = Cannot, "", []string{"fx.missing"}
	check(t, c, ask(t, ownFixture(), dir, c))

	projecttest.WriteFile(t, filepath.Join(run, "launch.json"), []byte(`{"task_document":`))
	c = matrix(ownExpect)["14"][0]
	c.kind, c.reason, c.has = Cannot, "", []string{"launch.json"}
	check(t, c, ask(t, ownFixture(), dir, c))
}

// TestProjectCases covers discovery and project.yaml.
func TestProjectCases(t *testing.T) {
	dir := t.TempDir()
	ownFixture().Build(t, dir, projectF)
	sub := filepath.Join(dir, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	leave := matrix(ownExpect)["02"][0]
	// Discovery from a subdirectory finds the project.
	found := leave
	found.project = ""
	out := ask(t, ownFixture(), sub, found)
	if out.Kind != Refuse || out.Reason != leave.reason {
		t.Errorf("discovered: %+v", out)
	}
	// AEP_PROJECT_DIR names another engineering directory.
	env := found
	env.mutate = func(o *Options) { o.Getenv = func(string) string { return ".eng2" } }
	env.kind, env.reason, env.has = Cannot, "", []string{"no project found", ".eng2"}
	check(t, env, ask(t, ownFixture(), sub, env))

	cases := map[string]struct{ yaml, want string }{
		"version":  {"version: aep.project/4\n", "aep.project/4"},
		"git":      {"version: aep.project/5\nprotocols: git+https://x/y#abc\n", "git source"},
		"absolute": {"version: aep.project/5\nprotocols: /etc\n", "relative"},
		"home":     {"version: aep.project/5\nprotocols: ~/tree\n", "relative"},
		"sqlite":   {"version: aep.project/5\nprotocols: ../tree\nstore: {sqlite: x.db}\n", "sqlite"},
		"broken":   {"version: [\n", "project"},
	}
	for name, c := range cases {
		projecttest.WriteFile(t, filepath.Join(dir, ".engineering", "project.yaml"), []byte(c.yaml))
		cc := leave
		cc.kind, cc.reason, cc.has = Cannot, "", []string{c.want}
		t.Run(name, func(t *testing.T) { check(t, cc, ask(t, ownFixture(), dir, cc)) })
	}
	// --root and --store replace what the verb cannot read.
	projecttest.WriteFile(t, filepath.Join(dir, ".engineering", "project.yaml"), []byte("version: aep.project/5\nprotocols: git+https://x/y#abc\nstore: {postgres: db}\n"))
	ok := leave
	ok.mutate = func(o *Options) {
		o.Root = filepath.Join(dir, "tree")
		o.Store = filepath.Join(dir, ".engineering", "planning")
	}
	check(t, ok, ask(t, ownFixture(), dir, ok))
}

// TestReasonsGroupedByMove: a leave refusal names each move once, then its
// lines, in the engine's words and order; a line without a move stands
// alone.
func TestReasonsGroupedByMove(t *testing.T) {
	got := groupReasons("specify", []string{
		"specify -> declined: guard: specification.declines_the_request",
		"specify -> declined: ? specification.satisfied — unobserved: specification.satisfied [principle spec-driven]",
		"specify -> declined: ? tests.unit.failed == 0 — unobserved: tests.unit.failed [principle test-driven]",
		"specify -> decompose: guard: artifact.specification.exists",
		"specify -> declined: ? late — unobserved: late",
	})
	want := "specify -> declined: guard: specification.declines_the_request; ? specification.satisfied — unobserved: specification.satisfied [principle spec-driven]; " +
		"? tests.unit.failed == 0 — unobserved: tests.unit.failed [principle test-driven] | specify -> decompose: guard: artifact.specification.exists | specify -> declined: ? late — unobserved: late"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := groupReasons("done", []string{"? a — unobserved: a", "? b — unobserved: b"}); got != "? a — unobserved: a; ? b — unobserved: b" {
		t.Errorf("completion lines: %s", got)
	}
}
