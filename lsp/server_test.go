package lsp

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/engine"
	"github.com/aepflow/aepflow/internal/rules"
	"github.com/aepflow/aepflow/tree"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// validated returns what `aepflow validate --root root` reports, the way
// cmd/aepflow/validate.go computes it.
func validated(root string) diag.List {
	t, diags := tree.Load(root)
	diags.Extend(engine.CheckTree(t))
	return diags.Sorted()
}

// summaries prints LSP diagnostics as `line:col code message` (message
// without its hint), for comparing with validate.
func summaries(ds []wireDiagnostic) []string {
	var out []string
	for _, d := range ds {
		msg, _, _ := strings.Cut(d.Message, "\n")
		out = append(out, strings.Join([]string{
			itoa(int(d.Range.Start.Line) + 1), ":", itoa(int(d.Range.Start.Character) + 1), " ",
			d.Code, " ", msg}, ""))
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }

// expected prints validate's diagnostics for file the same way (the
// fixtures are ASCII, so a code-point column is a UTF-16 one). A
// diagnostic without a file is expected at the position the server finds
// for its path, so only its code and message are compared.
func expected(diags diag.List, file, pathPrefix string) (positioned []string, positionless []string) {
	for _, d := range diags {
		switch {
		case d.File == file:
			positioned = append(positioned, itoa(d.Pos.Line)+":"+itoa(d.Pos.Column)+" "+d.Code+" "+d.Message)
		case d.File == "" && strings.HasPrefix(d.Path, pathPrefix):
			positionless = append(positionless, d.Code+" "+d.Message)
		}
	}
	return positioned, positionless
}

// sameAsValidate fails unless the published diagnostics of file are
// validate's for it.
func sameAsValidate(t *testing.T, got []wireDiagnostic, want diag.List, file, pathPrefix string) {
	t.Helper()
	positioned, positionless := expected(want, file, pathPrefix)
	var gotPositioned, gotPositionless []string
	for _, s := range summaries(got) {
		_, rest, _ := strings.Cut(s, " ")
		if slices.Contains(positionless, rest) && !slices.Contains(positioned, s) {
			gotPositionless = append(gotPositionless, rest)
		} else {
			gotPositioned = append(gotPositioned, s)
		}
	}
	if !slices.Equal(gotPositioned, positioned) || !slices.Equal(gotPositionless, positionless) {
		t.Errorf("%s: published\n  %s\nvalidate reports\n  %s\n  %s", filepath.Base(file),
			strings.Join(summaries(got), "\n  "), strings.Join(positioned, "\n  "), strings.Join(positionless, "\n  "))
	}
}

// TestSession drives a whole session over the pipe: initialize, didOpen,
// didChange (a typo in a workflow state, republished to the step map that
// depends on it, while the disk keeps the clean file), the fix, hover,
// definition, completion, documentSymbol, codeAction, shutdown and exit.
func TestSession(t *testing.T) {
	root := copyTree(t, "testdata/tree")
	wfPath := filepath.Join(root, "workflows", "demo", "review.yaml")
	mapPath := filepath.Join(root, "drivers", "review-steps.yaml")
	profilePath := filepath.Join(root, "profiles", "standard.yaml")
	c := startServer(t, Options{Debounce: -1})
	c.initialize(root)
	wf := c.open(wfPath)
	c.open(mapPath)
	c.open(profilePath)

	// A typo'd state key: the workflow's transitions and the step map's
	// state no longer fit. The buffer wins over the (clean) disk.
	broken := strings.Replace(wf, "\n  review:\n", "\n  reveiw:\n", 1)
	c.change(wfPath, 2, broken)
	gotWf := c.diagnostics(pathURI(wfPath), func(ds []wireDiagnostic) bool { return len(ds) > 0 })
	gotMap := c.diagnostics(pathURI(mapPath), func(ds []wireDiagnostic) bool { return len(ds) > 0 })
	mirror := copyTree(t, root)
	mirrorWf := filepath.Join(mirror, "workflows", "demo", "review.yaml")
	os.WriteFile(mirrorWf, []byte(broken), 0o644)
	want := validated(mirror)
	rebase := func(l diag.List) diag.List {
		out := slices.Clone(l)
		for i := range out {
			if out[i].File != "" {
				out[i].File = filepath.Join(root, strings.TrimPrefix(out[i].File, mirror))
			}
		}
		return out
	}
	sameAsValidate(t, gotWf, rebase(want), wfPath, "workflow demo/review")
	sameAsValidate(t, gotMap, rebase(want), mapPath, "driver-steps[demo/review-steps]")
	if !slices.ContainsFunc(gotMap, func(d wireDiagnostic) bool {
		return d.Code == "unknown_state" && d.Range.Start.Line == 17 && d.Range.Start.Character == 2
	}) {
		t.Errorf("the map's unknown_state must sit on its `review:` key (18:3): %v", summaries(gotMap))
	}
	for _, d := range gotWf {
		if d.Code == "unknown_state" && (d.CodeDescription == nil || d.CodeDescription.HRef != rules.DocsBase+"codes-workflow.md#unknown_state") {
			t.Errorf("codeDescription of a workflow's unknown_state: %+v", d.CodeDescription)
		}
		if *d.Source != "aepflow" || *d.Severity != protocol.DiagnosticSeverityError {
			t.Errorf("source and severity: %+v", d)
		}
	}
	if disk, _ := os.ReadFile(wfPath); string(disk) != wf {
		t.Fatal("the test must not have touched the disk")
	}

	// The fix clears both documents.
	c.change(wfPath, 3, wf)
	c.diagnostics(pathURI(wfPath), func(ds []wireDiagnostic) bool { return len(ds) == 0 })
	c.diagnostics(pathURI(mapPath), func(ds []wireDiagnostic) bool { return len(ds) == 0 })

	t.Run("hover", func(t *testing.T) { testHover(t, c, wfPath, mapPath, profilePath) })
	t.Run("definition", func(t *testing.T) { testDefinition(t, c, root, wfPath, mapPath, profilePath) })
	t.Run("completion", func(t *testing.T) { testCompletion(t, c, wfPath, mapPath) })
	t.Run("profile completion", func(t *testing.T) { testProfileCompletion(t, c, profilePath) })
	t.Run("documentSymbol", func(t *testing.T) { testSymbols(t, c, wfPath, mapPath) })
	t.Run("codeAction", func(t *testing.T) { testCodeActionNone(t, c, wfPath) })

	if err := c.exit(true); err != nil {
		t.Fatalf("Serve after shutdown and exit: %v", err)
	}
}

// at returns the LSP position of the first occurrence of needle in the
// file's text, plus delta characters (the fixtures are ASCII).
func at(t *testing.T, path, needle string, delta int) protocol.Position {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(data), needle)
	if i < 0 {
		t.Fatalf("%q not in %s", needle, path)
	}
	return newText(string(data)).position(i + delta)
}

func docPos(path string, p protocol.Position) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": pathURI(path)}, "position": p}
}

func hoverText(t *testing.T, c *client, path string, p protocol.Position) string {
	t.Helper()
	var h *struct {
		Contents protocol.MarkupContent `json:"contents"`
	}
	c.result("textDocument/hover", docPos(path, p), &h)
	if h == nil {
		return ""
	}
	return h.Contents.Value
}

func testHover(t *testing.T, c *client, wfPath, mapPath, profilePath string) {
	cases := []struct {
		path, needle string
		delta        int
		want         []string
	}{
		{wfPath, "to: review", 5, []string{"**state `review`** — Review it", "phases: review", "- → `done` when `review.approved`", "- ← `check` when `tests.unit.failed == 0`"}},
		{wfPath, "initial: write", 10, []string{"state `write`", "initial"}},
		{wfPath, "tests.unit.failed == 0", 8, []string{"**fact `tests.unit.failed`**", "`test_result` evidence, from `test-runner`"}},
		{wfPath, "review.approved: false", 3, []string{"**fact `review.approved`**", "`review` evidence, from `human-review`"}},
		{mapPath, "workflow: demo/review/2", 12, []string{"**workflow `demo/review`** version 2 — Reviewed change 🚀", "4 states, 5 transitions", "`workflows/demo/review.yaml`"}},
		{mapPath, "  check:", 3, []string{"**state `check`** — Check it", "Run the unit tests."}},
		{mapPath, "kind: test_result", 8, []string{"**evidence kind `test_result`**", "verifiers: `test-runner`", "`tests.<suite>.failed`"}},
		{mapPath, "verifier: test-runner", 12, []string{"**verifier `test-runner`**", "establishes `test_result`, `specification`"}},
		{profilePath, "- tested", 3, []string{"**principle `tested`** version 1 — Tested changes", "Tests ran green.", "`principles/tested.yaml`"}},
		{profilePath, "protocol: demo/1", 11, []string{"**protocol `demo`** version 1 — Demo protocol"}},
	}
	for _, tt := range cases {
		got := hoverText(t, c, tt.path, at(t, tt.path, tt.needle, tt.delta))
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("hover at %q in %s: %q missing from\n%s", tt.needle, filepath.Base(tt.path), w, got)
			}
		}
	}
	// A literal on a guard's right side is no fact; a title is nothing.
	if got := hoverText(t, c, wfPath, at(t, wfPath, "title: Check it", 8)); got != "" {
		t.Errorf("hover on a title: %q", got)
	}
}

func testDefinition(t *testing.T, c *client, root, wfPath, mapPath, profilePath string) {
	cases := []struct {
		path, needle string
		delta        int
		target       string
		line, col    int // 1-based, of the target
	}{
		{wfPath, "to: done", 5, wfPath, 19, 3},
		{wfPath, "initial: write", 10, wfPath, 9, 3},
		{mapPath, "  review:", 3, wfPath, 16, 3},
		{mapPath, "workflow: demo/review/2", 12, wfPath, 2, 5},
		{profilePath, "- tested", 3, filepath.Join(root, "principles", "tested.yaml"), 1, 1},
		{profilePath, "protocol: demo/1", 11, filepath.Join(root, "protocols", "demo.yaml"), 1, 1},
	}
	for _, tt := range cases {
		var loc *protocol.Location
		c.result("textDocument/definition", docPos(tt.path, at(t, tt.path, tt.needle, tt.delta)), &loc)
		if loc == nil || loc.URI != pathURI(tt.target) || int(loc.Range.Start.Line)+1 != tt.line || int(loc.Range.Start.Character)+1 != tt.col {
			t.Errorf("definition at %q: %+v, want %s:%d:%d", tt.needle, loc, filepath.Base(tt.target), tt.line, tt.col)
		}
	}
}

func labels(t *testing.T, c *client, path string, p protocol.Position) []string {
	t.Helper()
	var list struct {
		Items []struct {
			Label string `json:"label"`
		} `json:"items"`
	}
	c.result("textDocument/completion", docPos(path, p), &list)
	var out []string
	for _, it := range list.Items {
		out = append(out, it.Label)
	}
	return out
}

func testCompletion(t *testing.T, c *client, wfPath, mapPath string) {
	wf, _ := os.ReadFile(wfPath)
	// Type into the workflow buffer: a new transition's `to: ` and a
	// guard, and a key inside a state.
	edited := strings.Replace(string(wf), "  - from: write\n    to: check\n",
		"  - from: write\n    to: check\n  - from: done\n    to: \n    when: tests.u\n", 1)
	edited = strings.Replace(edited, "    title: Done\n", "    title: Done\n    ter\n", 1)
	edited += "  - de"
	c.change(wfPath, 10, edited)
	// The edited buffer's problems are published before it is restored:
	// otherwise, on a busy machine, both changes may be validated in one
	// flush, which publishes nothing (the diagnostics did not move) and
	// the wait for the restored buffer's empty list below never ends.
	c.diagnostics(pathURI(wfPath), func(ds []wireDiagnostic) bool { return len(ds) > 0 })
	os.WriteFile(wfPath+".edited", []byte(edited), 0o644)
	defer os.Remove(wfPath + ".edited")
	pos := func(needle string, delta int) protocol.Position { return at(t, wfPath+".edited", needle, delta) }
	if got := labels(t, c, wfPath, pos("    to: \n", 8)); !slices.Equal(got, []string{"check", "done", "review", "write"}) {
		t.Errorf("states after `to: `: %v", got)
	}
	if got := labels(t, c, wfPath, pos("when: tests.u", 13)); !slices.Contains(got, "tests.unit.failed") || !slices.Contains(got, "review.approved") {
		t.Errorf("facts in a guard: %v", got)
	}
	if got := labels(t, c, wfPath, pos("    ter\n", 7)); !slices.Contains(got, "terminal") || !slices.Contains(got, "phases") || slices.Contains(got, "initial") {
		t.Errorf("keys in a state: %v", got)
	}
	if got := labels(t, c, wfPath, pos("  - de", 6)); !slices.Contains(got, "description") || !slices.Contains(got, "from") || slices.Contains(got, "title") {
		t.Errorf("keys in a transition: %v", got)
	}
	c.change(wfPath, 11, string(wf))
	c.diagnostics(pathURI(wfPath), func(ds []wireDiagnostic) bool { return len(ds) == 0 })

	mp, _ := os.ReadFile(mapPath)
	editedMap := strings.Replace(string(mp), "          verifier: test-runner\n", "          verifier: \n", 1)
	editedMap = strings.Replace(editedMap, "  review:\n", "  d\n  review:\n", 1)
	c.change(mapPath, 12, editedMap)
	os.WriteFile(mapPath+".edited", []byte(editedMap), 0o644)
	defer os.Remove(mapPath + ".edited")
	if got := labels(t, c, mapPath, at(t, mapPath+".edited", "verifier: \n", 10)); !slices.Contains(got, "test-runner") || !slices.Contains(got, "human-review") {
		t.Errorf("verifiers: %v", got)
	}
	if got := labels(t, c, mapPath, at(t, mapPath+".edited", "kind: test_result", 6)); !slices.Contains(got, "static_analysis") {
		t.Errorf("evidence kinds: %v", got)
	}
	if got := labels(t, c, mapPath, at(t, mapPath+".edited", "  d\n", 3)); !slices.Equal(got, []string{"check", "done", "review", "write"}) {
		t.Errorf("map state keys: %v", got)
	}
	c.change(mapPath, 13, string(mp))
}

func testProfileCompletion(t *testing.T, c *client, profilePath string) {
	pf, _ := os.ReadFile(profilePath)
	edited := strings.Replace(string(pf), "  - tested\n", "  - tested\n  - \n", 1)
	edited = strings.Replace(edited, "protocol: demo/1\n", "protocol: \n", 1)
	c.change(profilePath, 20, edited)
	os.WriteFile(profilePath+".edited", []byte(edited), 0o644)
	defer os.Remove(profilePath + ".edited")
	if got := labels(t, c, profilePath, at(t, profilePath+".edited", "  - \n", 4)); !slices.Equal(got, []string{"tested"}) {
		t.Errorf("principles: %v", got)
	}
	if got := labels(t, c, profilePath, at(t, profilePath+".edited", "protocol: \n", 10)); !slices.Equal(got, []string{"demo/1"}) {
		t.Errorf("protocols: %v", got)
	}
	c.change(profilePath, 21, string(pf))
}

func testSymbols(t *testing.T, c *client, wfPath, mapPath string) {
	var syms []protocol.DocumentSymbol
	c.result("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": pathURI(wfPath)}}, &syms)
	var got []string
	for _, s := range syms {
		var kids []string
		for _, k := range s.Children {
			kids = append(kids, k.Name)
		}
		got = append(got, s.Name+"["+strings.Join(kids, " ")+"]")
	}
	if want := "write[→ check] check[→ review → write] review[→ done → write] done[]"; strings.Join(got, " ") != want {
		t.Errorf("workflow symbols: %s, want %s", strings.Join(got, " "), want)
	}
	c.result("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": pathURI(mapPath)}}, &syms)
	got = nil
	for _, s := range syms {
		var kids []string
		for _, k := range s.Children {
			kids = append(kids, k.Name)
		}
		got = append(got, s.Name+"["+strings.Join(kids, "|")+"]")
	}
	if want := "write[Make the change.] check[The unit suite.] review[Review the change.]"; strings.Join(got, " ") != want {
		t.Errorf("map symbols: %s, want %s", strings.Join(got, " "), want)
	}
}

// testCodeActionNone: a clean document offers no fix.
func testCodeActionNone(t *testing.T, c *client, wfPath string) {
	var actions []protocol.CodeAction
	c.result("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": pathURI(wfPath)},
		"range":        protocol.Range{End: protocol.Position{Line: 30}},
		"context":      map[string]any{"diagnostics": []any{}},
	}, &actions)
	if len(actions) != 0 {
		t.Errorf("a clean document offers %v", actions)
	}
}

// TestWatchedFiles: a client that registers watchers on request is asked
// to; a step map changed on disk (not open) is read again and its new
// diagnostics published; a closed buffer falls back to the disk.
func TestWatchedFiles(t *testing.T) {
	root := copyTree(t, "testdata/tree")
	wfPath := filepath.Join(root, "workflows", "demo", "review.yaml")
	mapPath := filepath.Join(root, "drivers", "review-steps.yaml")
	c := startServer(t, Options{Debounce: -1})
	var res map[string]any
	c.result("initialize", map[string]any{"rootUri": pathURI(root), "capabilities": map[string]any{
		"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}}}, &res)
	c.notify("initialized", map[string]any{})
	reg := c.note("client/registerCapability", nil)
	if !strings.Contains(string(reg), `"method":"workspace/didChangeWatchedFiles"`) || !strings.Contains(string(reg), `**/*.{yaml,yml,json}`) {
		t.Errorf("registration: %s", reg)
	}
	wf := c.open(wfPath)
	mp, _ := os.ReadFile(mapPath)
	os.WriteFile(mapPath, []byte(strings.Replace(string(mp), "  write:\n", "  wirte:\n", 1)), 0o644)
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []map[string]any{{"uri": pathURI(mapPath), "type": 2}}})
	// The tree's first load may still be in flight and read the map while
	// it is being written (os.WriteFile truncates first): a publication of
	// that half-written state may come first, and the one that counts is
	// the re-read after the change.
	ds := c.diagnostics(pathURI(mapPath), func(ds []wireDiagnostic) bool {
		return len(ds) == 1 && ds[0].Code == "unknown_state"
	})
	if !strings.Contains(ds[0].Message, "`wirte`") {
		t.Errorf("the map changed on disk: %v", summaries(ds))
	}
	// Unsaved: the buffer breaks the workflow; closed, the disk wins.
	c.change(wfPath, 2, wf+"bogus: 1\n")
	c.diagnostics(pathURI(wfPath), func(ds []wireDiagnostic) bool { return len(ds) == 1 && ds[0].Code == "unknown_field" })
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": pathURI(wfPath)}})
	c.diagnostics(pathURI(wfPath), func(ds []wireDiagnostic) bool { return len(ds) == 0 })
	if err := c.exit(false); !errors.Is(err, ErrNoShutdown) {
		t.Errorf("exit without shutdown: %v", err)
	}
}

// TestWatchedChangeDuringFirstLoad: a file that changes on disk while its
// tree's first load is in flight (read before the change, not yet held)
// is read again once the load lands. The change was dropped: no held tree
// read the file, so the server published the old map's diagnostics for
// good. The test holds the load in its checks until the notification has
// been handled (a request answered after it proves that).
func TestWatchedChangeDuringFirstLoad(t *testing.T) {
	root := copyTree(t, "testdata/tree")
	wfPath := filepath.Join(root, "workflows", "demo", "review.yaml")
	mapPath := filepath.Join(root, "drivers", "review-steps.yaml")
	entered, release := make(chan struct{}), make(chan struct{})
	var first sync.Once
	checks := func(tr *tree.Tree) diag.List {
		first.Do(func() { close(entered); <-release })
		return engine.CheckTree(tr)
	}
	c := startServer(t, Options{Debounce: -1, TreeChecks: checks})
	c.initialize(root)
	c.open(wfPath)
	<-entered // the tree was read from disk; its load has not landed
	mp, _ := os.ReadFile(mapPath)
	if err := os.WriteFile(mapPath, []byte(strings.Replace(string(mp), "  write:\n", "  wirte:\n", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []map[string]any{{"uri": pathURI(mapPath), "type": 2}}})
	c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": pathURI(wfPath)}})
	close(release)
	ds := c.diagnostics(pathURI(mapPath), func(ds []wireDiagnostic) bool {
		return len(ds) == 1 && ds[0].Code == "unknown_state"
	})
	if !strings.Contains(ds[0].Message, "`wirte`") {
		t.Errorf("the map changed on disk during the load: %v", summaries(ds))
	}
	if err := c.exit(true); err != nil {
		t.Fatal(err)
	}
}

// TestPublishesBeforeServeStoresTheConnection: the first messages are
// handled, and their diagnostics published, while serve has not yet
// stored the connection it made (a busy machine can hold it there): the
// publication reaches the client all the same (it was dropped, and the
// broken buffer showed no problem until its next change).
func TestPublishesBeforeServeStoresTheConnection(t *testing.T) {
	root := copyTree(t, "testdata/tree")
	wfPath := filepath.Join(root, "workflows", "demo", "review.yaml")
	s := newServer(Options{Debounce: -1}.withDefaults())
	published := make(chan struct{})
	s.connected = func() { <-published }
	c := startWith(t, s)
	c.initialize(root)
	wf := c.open(wfPath)
	c.change(wfPath, 2, strings.Replace(wf, "\n  review:\n", "\n  reveiw:\n", 1))
	got := c.diagnostics(pathURI(wfPath), func(ds []wireDiagnostic) bool { return len(ds) > 0 })
	close(published)
	if !slices.ContainsFunc(got, func(d wireDiagnostic) bool { return d.Code == "unknown_state" }) {
		t.Errorf("the broken buffer: %v", summaries(got))
	}
	if err := c.exit(true); err != nil {
		t.Fatal(err)
	}
}

// TestNewBufferJoinsTheTree: an unsaved buffer for a file that does not
// exist yet is a document of the tree; a duplicate of a workflow gets
// duplicate_workflow with the first declaration as related information,
// and closing it (the file was never written) clears it.
func TestNewBufferJoinsTheTree(t *testing.T) {
	root := copyTree(t, "testdata/tree")
	wfPath := filepath.Join(root, "workflows", "demo", "review.yaml")
	newPath := filepath.Join(root, "workflows", "zz-copy.yaml")
	c := startServer(t, Options{Debounce: -1})
	c.initialize(root)
	wf := c.open(wfPath)
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": pathURI(newPath), "languageId": "yaml", "version": 1, "text": wf}})
	ds := c.diagnostics(pathURI(newPath), func(ds []wireDiagnostic) bool { return len(ds) > 0 })
	if len(ds) != 1 || ds[0].Code != "duplicate_workflow" || len(ds[0].RelatedInformation) != 1 ||
		ds[0].RelatedInformation[0].Location.URI != pathURI(wfPath) || ds[0].RelatedInformation[0].Message != "first declared here" {
		t.Fatalf("the duplicate: %+v", ds)
	}
	if ds[0].CodeDescription == nil || ds[0].CodeDescription.HRef != rules.DocsBase+"codes-documents.md#duplicate_workflow" {
		t.Errorf("codeDescription: %+v", ds[0].CodeDescription)
	}
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": pathURI(newPath)}})
	c.diagnostics(pathURI(newPath), func(ds []wireDiagnostic) bool { return len(ds) == 0 })
	if err := c.exit(true); err != nil {
		t.Fatal(err)
	}
}

// TestDiagnosticsAreValidates opens every document of the tree package's
// fixture trees (duplicates, misplaced documents, stale pins, shape errors
// of every kind) and checks that each gets exactly what validate reports
// for it.
func TestDiagnosticsAreValidates(t *testing.T) {
	for _, src := range []string{"../tree/testdata/many", "../tree/testdata/duplicates", "../tree/testdata/pins", "../tree/testdata/misplaced"} {
		t.Run(filepath.Base(src), func(t *testing.T) {
			root := copyTree(t, src)
			want := validated(root)
			tr, _ := tree.Load(root)
			c := startServer(t, Options{Debounce: -1})
			c.initialize(root)
			for _, f := range tr.Files {
				c.open(f.Path)
			}
			checked := 0
			for _, f := range tr.Files {
				prefix := "\x00"
				if w := workflowOf(tr, f.Path); w != "" {
					prefix = w
				}
				positioned, positionless := expected(want, f.Path, prefix)
				n := len(positioned) + len(positionless)
				if n == 0 {
					continue
				}
				got := c.diagnostics(pathURI(f.Path), func(ds []wireDiagnostic) bool { return len(ds) >= n })
				sameAsValidate(t, got, want, f.Path, prefix)
				checked++
			}
			if checked == 0 {
				t.Fatal("no file of the fixture has diagnostics")
			}
			if err := c.exit(true); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// workflowOf returns the path prefix of the positionless diagnostics that
// belong to file (a step map's `driver-steps[<id>]`), or "".
func workflowOf(tr *tree.Tree, file string) string {
	for _, id := range tr.StepMapIDs() {
		if tr.StepMaps[id].File == file {
			return "driver-steps[" + id + "]"
		}
	}
	return ""
}

// TestChangesAreDebounced: changes that arrive within the debounce wait
// are validated together, once. The wait here never ends by itself; the
// test flushes by hand after the server has taken every change in, so
// nothing depends on timing.
func TestChangesAreDebounced(t *testing.T) {
	root := copyTree(t, "testdata/tree")
	wfPath := filepath.Join(root, "workflows", "demo", "review.yaml")
	s := newServer(Options{Debounce: 1 << 62}.withDefaults())
	c := startWith(t, s)
	c.initialize(root)
	wf := c.open(wfPath)
	for v := 2; v <= 6; v++ {
		c.change(wfPath, v, wf+strings.Repeat("bogus: 1\n", v-1))
	}
	c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": pathURI(wfPath)}})
	s.flush()
	c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": pathURI(wfPath)}})
	var pubs []wirePublication
	for _, m := range c.notes {
		var p wirePublication
		if m.Method == "textDocument/publishDiagnostics" && json.Unmarshal(m.Params, &p) == nil && p.URI == pathURI(wfPath) {
			pubs = append(pubs, p)
		}
	}
	if len(pubs) != 1 || pubs[0].Version == nil || *pubs[0].Version != 6 || len(pubs[0].Diagnostics) != 4 {
		t.Fatalf("five changes must publish once, for version 6 (five `bogus` keys, four duplicates): %+v", pubs)
	}
}

// TestDiagnosticsUnderTheClientsURI: a document opened under a URI spelt
// otherwise than the server spells its path (`…/demo/../demo/review.yaml`)
// had its diagnostics published under the server's spelling, which the
// client matches to no document it shows. They go to the URI the client
// opened it by, and when it is closed that URI is cleared.
func TestDiagnosticsUnderTheClientsURI(t *testing.T) {
	root := copyTree(t, "testdata/tree")
	wfPath := filepath.Join(root, "workflows", "demo", "review.yaml")
	uri := pathURI(filepath.Join(root, "workflows", "demo")) + "/../demo/review.yaml"
	data, err := os.ReadFile(wfPath)
	if err != nil {
		t.Fatal(err)
	}
	c := startServer(t, Options{Debounce: -1})
	c.initialize(root)
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "yaml", "version": 1, "text": string(data)}})
	broken := strings.Replace(string(data), "\n  review:\n", "\n  reveiw:\n", 1)
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 2},
		"contentChanges": []map[string]any{{"text": broken}}})
	if got := c.diagnostics(uri, func(ds []wireDiagnostic) bool { return len(ds) > 0 }); len(got) == 0 {
		t.Fatal("no diagnostics under the client's URI")
	}
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
	c.diagnostics(uri, func(ds []wireDiagnostic) bool { return len(ds) == 0 })
	if err := c.exit(true); err != nil {
		t.Fatal(err)
	}
}
