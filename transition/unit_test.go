package transition

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
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

func TestAppendJSONString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `""`},
		{`a"b\c`, `"a\"b\\c"`},
		{"\b\f\n\r\t", `"\b\f\n\r\t"`},
		{"\x00\x01\x1f\x7f", `"\u0000\u0001\u001f` + "\x7f" + `"`},
		{"\x0b\x1b", `"\u000b\u001b"`},
		{"<>&", `"<>&"`},
		{"\u2028\u2029é✓—", "\"\u2028\u2029é✓—\""},
		{"/", `"/"`},
	}
	for _, tt := range tests {
		if got := string(AppendJSONString(nil, tt.in)); got != tt.want {
			t.Errorf("AppendJSONString(%q) = %s, want %s", tt.in, got, tt.want)
		}
		var back string
		if err := json.Unmarshal([]byte(tt.want), &back); err != nil || back != tt.in {
			t.Errorf("%s does not decode back to %q: %q, %v", tt.want, tt.in, back, err)
		}
	}
	if got := string(RefusalJSON("a \"b\"")); got != `{"reason":"a \"b\""}`+"\n" {
		t.Errorf("RefusalJSON = %q", got)
	}
}

func TestParseRunID(t *testing.T) {
	good := map[string]RunID{
		"AUTH-142/3":      {"AUTH-142", 3},
		"DRIVE-1/1":       {"DRIVE-1", 1},
		"team/AUTH.1/007": {"team/AUTH.1", 7},
		"x/4294967295":    {"x", 4294967295},
		"a_b/2":           {"a_b", 2},
	}
	for in, want := range good {
		got, err := ParseRunID(in)
		if err != nil || got != want {
			t.Errorf("ParseRunID(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "DRIVE-1", "DRIVE-1/0", "DRIVE-1/", "/1", "../x/1", "a/../b/1", "/abs/1", "DRIVE-1/+1",
		"DRIVE-1/-1", "DRIVE-1/4294967296", "DRIVE-1/1x", "DRIVE-1.1", "a//b/1", "./a/1", "a/./1", `a\..\b/1`, "x/ 1"} {
		if got, err := ParseRunID(in); err == nil {
			t.Errorf("ParseRunID(%q) = %+v, want an error", in, got)
		}
	}
}

func TestRunDir(t *testing.T) {
	runs := filepath.Join("p", ".engineering", "runs")
	dir, err := RunDir(runs, RunID{"team/A", 2})
	if err != nil || dir != filepath.Join(runs, "team", "A", "2") {
		t.Errorf("RunDir = %q, %v", dir, err)
	}
	// ParseRunID never yields these; RunDir refuses them anyway.
	for _, id := range []RunID{{"../x", 1}, {"a/../../b", 1}, {"..", 1}} {
		if dir, err := RunDir(runs, id); err == nil {
			t.Errorf("RunDir(%v) = %q, want an error", id, dir)
		}
	}
}

// TestReadRunCases covers the reader's refusals beyond the matrix.
func TestReadRunCases(t *testing.T) {
	dir := t.TempDir()
	ownFixture().build(t, dir, projectF)
	runs := filepath.Join(dir, ".engineering", "runs", "DRIVE-1")
	read := func(n string) (*Run, error) {
		id, _ := ParseRunID("DRIVE-1/" + n)
		before := treeHash(t, dir)
		r, err := ReadRun(filepath.Join(runs, n), id)
		if treeHash(t, dir) != before {
			t.Errorf("ReadRun changed the project")
		}
		return r, err
	}
	if r, err := read("1"); err != nil || r.Layout != LayoutGeneration || r.Generation != 1 || !strings.Contains(string(r.Snapshot), `"state":"establish_verifiers"`) {
		t.Errorf("run 1: %+v, %v", r, err)
	}
	if r, err := read("2"); err != nil || r.Layout != LayoutLegacy || string(r.Cursor) != string(cursorBytes) {
		t.Errorf("run 2: %+v, %v", r, err)
	}
	expectErr := func(n, want string) {
		t.Helper()
		if _, err := read(n); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("run %s: %v, want an error with %q", n, err, want)
		}
	}
	expectErr("7", "incomplete state")
	expectErr("8", "no committed generation")
	expectErr("9", "no run DRIVE-1/9")
	writeFile(t, filepath.Join(runs, "10"), []byte("a file, not a directory"))
	expectErr("10", "no run DRIVE-1/10")

	// state.json variants over a copy of run 1.
	variants := map[string]struct{ state, want string }{
		"format":   {`{"format":"aep.driver-state-current/2","generation":1,"manifest_sha256":"x"}`, "format"},
		"missing":  {`{"format":"aep.driver-state-current/1","generation":1}`, "all required"},
		"negative": {`{"format":"aep.driver-state-current/1","generation":-1,"manifest_sha256":"x"}`, "state.json"},
		"gen":      {`{"format":"aep.driver-state-current/1","generation":2,"manifest_sha256":"x"}`, "generation 2"},
		"garbage":  {`not json`, "state.json"},
		"digest":   {`{"format":"aep.driver-state-current/1","generation":1,"manifest_sha256":"00"}`, "sha256 check failed"},
	}
	for name, v := range variants {
		n := "v" + name
		id := RunID{"DRIVE-1", 1}
		d := filepath.Join(runs, n)
		copyDir(t, filepath.Join(runs, "1"), d)
		writeFile(t, filepath.Join(d, "state.json"), []byte(v.state))
		if _, err := ReadRun(d, id); err == nil || !strings.Contains(err.Error(), v.want) {
			t.Errorf("%s: %v, want an error with %q", name, err, v.want)
		}
	}
	// A manifest of another generation, with a correct digest.
	d := filepath.Join(runs, "vmanifest")
	copyDir(t, filepath.Join(runs, "1"), d)
	m := []byte(`{"format":"aep.driver-state-generation/1","generation":3,"snapshot_sha256":"a","cursor_sha256":"b"}`)
	writeFile(t, filepath.Join(d, "generations", "1", "manifest.json"), m)
	writeFile(t, filepath.Join(d, "state.json"), []byte(`{"format":"aep.driver-state-current/1","generation":1,"manifest_sha256":"`+sha(m)+`"}`))
	if _, err := ReadRun(d, RunID{"DRIVE-1", 1}); err == nil || !strings.Contains(err.Error(), "generation 3 does not match") {
		t.Errorf("manifest generation: %v", err)
	}
	// A snapshot changed after its manifest was written.
	d = filepath.Join(runs, "vsnap")
	copyDir(t, filepath.Join(runs, "1"), d)
	writeFile(t, filepath.Join(d, "generations", "1", "snapshot.json"), []byte("{}\n"))
	if _, err := ReadRun(d, RunID{"DRIVE-1", 1}); err == nil || !strings.Contains(err.Error(), "snapshot.json") {
		t.Errorf("changed snapshot: %v", err)
	}
}

// TestLaunchJSON: launch.json fills --task and --root the caller left out;
// flags win; its map is never resolved.
func TestLaunchJSON(t *testing.T) {
	dir := t.TempDir()
	ownFixture().build(t, dir, projectF)
	run := filepath.Join(dir, ".engineering", "runs", "DRIVE-1", "1")
	// The project's task pins a profile absent from the tree: only the
	// launch task can be resolved.
	writeFile(t, filepath.Join(dir, ".engineering", "task.yaml"), []byte("id: DRIVE-1\nkind: feature\nobjective: x\nprotocol: fx/1\nprofile: fx.missing\n"))
	data, _ := os.ReadFile(filepath.Join("testdata", "project", ".engineering", "task.yaml"))
	writeFile(t, filepath.Join(dir, "launch-task.yaml"), data)
	writeFile(t, filepath.Join(run, "launch.json"), []byte(`{"task_document":"launch-task.yaml","root":"tree","plugin_dirs":["/nowhere"],"map":"no/such-map","other":1}`))
	c := matrix(ownExpect)["14"][0]
	check(t, c, ask(t, ownFixture(), dir, c))

	c.mutate = func(o *Options) { o.Task = filepath.Join(dir, ".engineering", "task.yaml") }
	c.kind, c.reason, c.has = Cannot, "", []string{"fx.missing"}
	check(t, c, ask(t, ownFixture(), dir, c))

	writeFile(t, filepath.Join(run, "launch.json"), []byte(`{"task_document":`))
	c = matrix(ownExpect)["14"][0]
	c.kind, c.reason, c.has = Cannot, "", []string{"launch.json"}
	check(t, c, ask(t, ownFixture(), dir, c))
}

// TestProjectCases covers discovery and project.yaml.
func TestProjectCases(t *testing.T) {
	dir := t.TempDir()
	ownFixture().build(t, dir, projectF)
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
		writeFile(t, filepath.Join(dir, ".engineering", "project.yaml"), []byte(c.yaml))
		cc := leave
		cc.kind, cc.reason, cc.has = Cannot, "", []string{c.want}
		t.Run(name, func(t *testing.T) { check(t, cc, ask(t, ownFixture(), dir, cc)) })
	}
	// --root and --store replace what the verb cannot read.
	writeFile(t, filepath.Join(dir, ".engineering", "project.yaml"), []byte("version: aep.project/5\nprotocols: git+https://x/y#abc\nstore: {postgres: db}\n"))
	ok := leave
	ok.mutate = func(o *Options) {
		o.Root = filepath.Join(dir, "tree")
		o.Store = filepath.Join(dir, ".engineering", "planning")
	}
	check(t, ok, ask(t, ownFixture(), dir, ok))
}

// TestMapFlag: --map is resolved only when given.
func TestMapFlag(t *testing.T) {
	dir := t.TempDir()
	ownFixture().build(t, dir, projectF)
	base := matrix(ownExpect)["02"][0]
	withMap := func(m string, kind Kind, has ...string) {
		t.Helper()
		c := base
		c.mutate = func(o *Options) { o.Map = m }
		if kind == Cannot {
			c.kind, c.reason, c.has = Cannot, "", has
		}
		check(t, c, ask(t, ownFixture(), dir, c))
	}
	withMap("fx/flow-steps", Refuse)
	withMap(filepath.Join(dir, "tree", "drivers", "fx", "flow.yaml"), Refuse)
	withMap("fx/other", Cannot, "no step map `fx/other`")
	withMap("Not A Map", Cannot, "neither a file nor a step map id")
	writeFile(t, filepath.Join(dir, "other.yaml"), []byte("format: aep.driver-steps/1\nid: fx/other\nworkflow: fx/flow/2\n"))
	withMap(filepath.Join(dir, "other.yaml"), Cannot, "pins workflow `fx/flow/2`", "fx/flow/1")
}
