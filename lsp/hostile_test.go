package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/internal/fsio"
	"github.com/aepflow/aepflow/internal/testkit"
	"github.com/aepflow/aepflow/yamldoc"
	"github.com/sourcegraph/jsonrpc2"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// TestHostileMessages: whatever the client sends, the server answers a
// request it can read with a JSON-RPC error, logs what it cannot, and
// keeps serving; only a broken frame ends the stream, and then Serve
// returns instead of hanging.
func TestHostileMessages(t *testing.T) {
	root := copyTree(t, "testdata/tree")
	c := startServer(t, Options{Debounce: -1, MaxMessage: 4096})

	if m := c.call("textDocument/hover", map[string]any{}); m.Error == nil || m.Error.Code != codeServerNotInitialized {
		t.Errorf("a request before initialize: %+v", m.Error)
	}
	c.initialize(root)
	alive := func(what string) {
		t.Helper()
		if m := c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": "file:///nowhere.yaml"}}); m.Error != nil {
			t.Fatalf("after %s the server does not answer: %+v", what, m.Error)
		}
	}
	logged := func(what, want string) {
		t.Helper()
		p := c.note("window/logMessage", nil)
		if !strings.Contains(string(p), want) {
			t.Errorf("%s: log %s, want %q", what, p, want)
		}
	}

	c.frame(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"text":"` + strings.Repeat("x", 5000) + `"}}}`)
	logged("an oversized message", "over the limit of 4096 bytes")
	alive("an oversized message")

	c.frame(`{"jsonrpc":"2.0","id":`)
	logged("a body that is not JSON", "not a JSON-RPC 2.0")
	alive("a body that is not JSON")

	c.frame(`{"jsonrpc":"2.0","id":41}`)
	logged("a message neither request nor response", "not a JSON-RPC 2.0")

	c.frame(`{"jsonrpc":"2.0","id":42,"method":7}`)
	if m := c.response("42"); m.Error == nil || m.Error.Code != jsonrpc2.CodeInvalidRequest {
		t.Errorf("a method that is a number: %+v", m.Error)
	}
	c.frame(`{"jsonrpc":"2.0","id":43,"method":"textDocument/hover","params":"x"}`)
	if m := c.response("43"); m.Error == nil || m.Error.Code != jsonrpc2.CodeInvalidParams {
		t.Errorf("params of the wrong shape: %+v", m.Error)
	}
	if m := c.call("textDocument/frobnicate", map[string]any{}); m.Error == nil || m.Error.Code != jsonrpc2.CodeMethodNotFound {
		t.Errorf("an unknown method: %+v", m.Error)
	}
	if m := c.call("initialize", map[string]any{"capabilities": map[string]any{}}); m.Error == nil {
		t.Error("a second initialize must be refused")
	}
	alive("refused requests")

	// Positions and ranges far outside the document, a range that ends
	// before it starts, and a document that is not a file.
	wf := filepath.Join(root, "workflows", "demo", "review.yaml")
	c.open(wf)
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": pathURI(wf), "version": 2},
		"contentChanges": []map[string]any{{"range": map[string]any{"start": map[string]any{"line": 4000000000, "character": 4000000000}, "end": map[string]any{"line": 4000000000, "character": 4000000000}}, "text": "x"}}})
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": pathURI(wf), "version": 3},
		"contentChanges": []map[string]any{{"range": map[string]any{"start": map[string]any{"line": 3, "character": 9}, "end": map[string]any{"line": 1, "character": 0}}, "text": "x"}}})
	for _, method := range []string{"textDocument/hover", "textDocument/definition", "textDocument/completion"} {
		if m := c.call(method, docPos(wf, at(t, wf, "id:", 0))); m.Error != nil {
			t.Errorf("%s on an edited document: %+v", method, m.Error)
		}
		huge := map[string]any{"textDocument": map[string]any{"uri": pathURI(wf)}, "position": map[string]any{"line": 4294967295, "character": 4294967295}}
		if m := c.call(method, huge); m.Error != nil {
			t.Errorf("%s far past the end: %+v", method, m.Error)
		}
	}
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": "untitled:Untitled-1", "text": "id: x"}})
	alive("hostile edits")

	// A frame without Content-Length cannot be resynchronised: the stream
	// ends, and Serve returns the framing error (not ErrNoShutdown, which
	// would hide why).
	c.raw("Content-Type: x\r\n\r\n{}")
	if err := <-c.done; err == nil || !strings.Contains(err.Error(), "without Content-Length") {
		t.Errorf("after a broken frame Serve returned %v", err)
	}
}

// TestDocumentBounds: more documents than the bound are not tracked (the
// client is told), and a buffer over yamldoc's size bound is refused as
// validate refuses such a file.
func TestDocumentBounds(t *testing.T) {
	root := copyTree(t, "testdata/tree")
	c := startServer(t, Options{Debounce: -1, MaxDocuments: 1, MaxBuffer: 8 << 20})
	c.initialize(root)
	wf := filepath.Join(root, "workflows", "demo", "review.yaml")
	mp := filepath.Join(root, "drivers", "review-steps.yaml")
	c.open(wf)
	c.open(mp)
	if p := c.note("window/showMessage", nil); !strings.Contains(string(p), "1 documents are open") {
		t.Errorf("the refused open: %s", p)
	}
	c.change(wf, 2, "id: x\n"+strings.Repeat("#", 5<<20))
	ds := c.diagnostics(pathURI(wf), func(ds []wireDiagnostic) bool { return len(ds) > 0 })
	if len(ds) != 1 || ds[0].Code != "input_too_large" {
		t.Errorf("a 5 MiB buffer: %v", summaries(ds))
	}
	if err := c.exit(true); err != nil {
		t.Fatal(err)
	}
}

// TestCodecBounds: header lines, header line counts and bodies are
// bounded; an oversized body is skipped unread into the next message.
func TestCodecBounds(t *testing.T) {
	c := codec{maxBody: 10}
	read := func(in string) (map[string]any, error) {
		var v map[string]any
		err := c.ReadObject(bufio.NewReader(strings.NewReader(in)), &v)
		return v, err
	}
	if _, err := read("X: " + strings.Repeat("a", 2000) + "\r\n\r\n"); err == nil {
		t.Error("a header line over the bound must end the stream")
	}
	if _, err := read(strings.Repeat("X: 1\r\n", 20) + "\r\n"); err == nil {
		t.Error("too many header lines must end the stream")
	}
	if _, err := read("Content-Length: -1\r\n\r\n"); err == nil {
		t.Error("a negative length must end the stream")
	}
	if _, err := read("Content-Length: 5\n\n"); err == nil {
		t.Error("LF line endings must end the stream")
	}
	for _, header := range []string{"Content-Length: +2", "Content-Length: 0x2", "Content-Length: 2 2", "Content-Length: 2\r\ncontent-length: 3"} {
		if _, err := read(header + "\r\n\r\n{}"); err == nil {
			t.Errorf("%q must end the stream", header)
		}
	}
	if v, err := read("Content-Length: 2\r\nContent-Length: 02\r\n\r\n{}"); err != nil || v == nil {
		t.Errorf("two Content-Lengths that agree: %v %v", v, err)
	}
	r := bufio.NewReader(strings.NewReader("Content-Length: 20\r\n\r\n{\"id\":1,\"x\":\"aaaaa\"}Content-Length: 2\r\n\r\n{}"))
	var v map[string]any
	if err := c.ReadObject(r, &v); err != nil || v["method"] != methodRefused {
		t.Fatalf("an oversized body: %v %v", v, err)
	}
	if rest, _ := r.Peek(18); string(rest) != "Content-Length: 2\r" {
		t.Errorf("the oversized body was not skipped exactly: next %q", rest)
	}
	var out bytes.Buffer
	if err := c.WriteObject(&out, map[string]int{"a": 1}); err != nil || out.String() != "Content-Length: 7\r\n\r\n{\"a\":1}" {
		t.Errorf("write: %q %v", out.String(), err)
	}
}

// FuzzMessage hands any bytes to the server as one message body, after an
// initialize, and then a well-formed request: the server must not panic
// (handlers run without the recover here) and must answer the request.
func FuzzMessage(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///t/workflows/a.yaml"},"position":{"line":1,"character":4}}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///t/workflows/a.yaml","version":1,"text":"id: a\ninitial: s\nstates: {s: {title: S, terminal: true}}\ntransitions:\n  - {from: s, to: s, when: tests.unit.failed == 0}\n"}}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///t/workflows/a.yaml","version":2},"contentChanges":[{"range":{"start":{"line":0,"character":2},"end":{"line":0,"character":99}},"text":"😀"}]}}`,
		`{"jsonrpc":"2.0","id":2,"method":"textDocument/completion","params":{"textDocument":{"uri":"file:///t/workflows/a.yaml"},"position":{"line":4,"character":20}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"file:///t/workflows/a.yaml"},"range":{"start":{"line":9,"character":0},"end":{"line":0,"character":0}},"context":{"diagnostics":[]}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"textDocument/documentSymbol","params":{"textDocument":{"uri":"file:///t/workflows/a.yaml"}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"shutdown"}`,
		`[]`, `{}`, `{"id":{}}`, `null`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		s := newServer(Options{Debounce: -1}.withDefaults())
		s.panics = true
		s.initialized = true
		s.handler.SetInitialized(true)
		for _, msg := range [][]byte{
			[]byte(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///t/workflows/a.yaml","version":1,"text":"id: a\ninitial: s\nstates: {s: {title: S, terminal: true}}\n"}}}`),
			body,
			[]byte(`{"jsonrpc":"2.0","id":99,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///t/workflows/a.yaml"},"position":{"line":2,"character":10}}}`),
		} {
			var req jsonrpc2.Request
			in := append([]byte("Content-Length: "+itoa(len(msg))+"\r\n\r\n"), msg...)
			if err := (codec{maxBody: 1 << 20}).ReadObject(bufio.NewReader(bytes.NewReader(in)), &req); err != nil {
				t.Fatalf("a framed body must decode or stand in: %v", err)
			}
			if req.Method == "exit" {
				continue
			}
			if _, err := s.handle(nil, nil, &req); err != nil {
				var rpc *jsonrpc2.Error
				if !errors.As(err, &rpc) {
					t.Fatalf("%s: an error that is not a JSON-RPC error: %v", req.Method, err)
				}
			}
		}
		s.stop()
	})
}

// FuzzCodec reads any bytes as a stream of framed messages: no panic, and
// every message decodes or stands in.
func FuzzCodec(f *testing.F) {
	f.Add([]byte("Content-Length: 2\r\n\r\n{}"))
	f.Add([]byte("Content-Length: 9999999999\r\n\r\n"))
	f.Add([]byte("content-length:3\r\nX: y\r\n\r\n[1]Content-Length: 1\r\n\r\n{"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bufio.NewReader(bytes.NewReader(data))
		for i := 0; i < 64; i++ {
			var m json.RawMessage
			if err := (codec{maxBody: 1 << 10}).ReadObject(r, &m); err != nil {
				return
			}
		}
	})
}

// TestSecurityBounds checks the lsp rows of docs/security.md against the
// server's defaults.
func TestSecurityBounds(t *testing.T) {
	rows := testkit.TableRows(t, "../docs/security.md", "### lsp")
	o := Options{}.withDefaults()
	size := fsio.FormatSize
	for first, want := range map[string]string{
		"an LSP message body":                          size(o.MaxMessage),
		"an LSP header line; header lines per message": size(maxHeaderLine) + "; " + itoa(maxHeaderLines),
		"documents open at once":                       itoa(o.MaxDocuments),
		"a buffer the server keeps":                    size(int64(o.MaxBuffer)),
		"a buffer validated":                           size(yamldoc.MaxFileSize) + ", as a file",
		"document trees held at once":                  itoa(o.MaxTrees),
		"the incremental changes of one `didChange`":   itoa(o.MaxChangeWork>>30) + " GiB of text gone through",
	} {
		row, ok := rows[first]
		if !ok {
			t.Errorf("docs/security.md has no lsp row %q", first)
			continue
		}
		if row[1] != want {
			t.Errorf("row %q: the limit reads %q; the code says %q", first, row[1], want)
		}
	}
}

// syncBuffer is a log the server writes from its goroutines while the
// test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestLogLinesAreEscaped: what the client controls and the server logs (a
// method name, a response id, a URI) cannot break a log line or forge
// one: every line is the server's, escaped as every line aepflow prints
// is (diag.EscapeText), and so is what it shows the client.
func TestLogLinesAreEscaped(t *testing.T) {
	root := copyTree(t, "testdata/tree")
	log := &syncBuffer{}
	c := startServer(t, Options{Debounce: -1, MaxDocuments: 1, MaxBuffer: 64, Log: log})
	const forged = "aepflow lsp: FORGED"
	c.notify("early\n"+forged, map[string]any{})
	c.initialize(root)
	c.notify("frob\u202e\n"+forged, map[string]any{})
	c.notify("$/aepflow/unknown\n"+forged, map[string]any{}) // ignored, as the LSP allows
	c.frame(`{"jsonrpc":"2.0","id":"x\n` + forged + `","result":null}`)
	wf := filepath.Join(root, "workflows", "demo", "review.yaml")
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": pathURI(wf), "version": 1, "text": "id: x\n"}})
	// A second document is over MaxDocuments, a buffer over MaxBuffer is
	// dropped: both log the document's path, which is the client's.
	other := filepath.Join(root, "workflows", "demo", "x\n"+forged+"\u2028.yaml")
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": pathURI(other), "version": 1, "text": "id: x\n"}})
	if p := c.note("window/showMessage", nil); strings.Contains(string(p), `\n`) || !strings.Contains(string(p), `x\\x0a`) {
		t.Errorf("the refused open is shown unescaped: %s", p)
	}
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": pathURI(wf)}})
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": pathURI(other), "version": 1, "text": strings.Repeat("#", 65)}})
	if m := c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": pathURI(wf)}}); m.Error != nil {
		t.Fatal(m.Error)
	}
	if err := c.exit(true); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(log.String(), "\n"), "\n")
	if len(lines) != 5 {
		t.Errorf("want 5 log lines (before initialize, unknown method, response id, refused open, dropped buffer), got %d:\n%s", len(lines), log)
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "aepflow lsp: ") || strings.HasPrefix(l, forged) || diag.EscapeText(l) != l {
			t.Errorf("a log line that is not the server's, or not escaped: %q", l)
		}
	}
	if strings.Contains(log.String(), "$/aepflow/unknown") {
		t.Errorf("an unknown $/ notification was logged:\n%s", log)
	}
}

// TestChangesAreBounded: the incremental changes of one didChange apply
// in order, each placed in the text its predecessors left, and a
// notification whose changes would go through more than MaxChangeWork
// bytes drops the buffer (the disk stands for it) instead of holding the
// server, until the client sends the whole text again.
func TestChangesAreBounded(t *testing.T) {
	root := copyTree(t, "testdata/tree")
	log := &syncBuffer{}
	s := newServer(Options{Debounce: -1, MaxChangeWork: 4 << 20, Log: log}.withDefaults())
	c := startWith(t, s)
	c.initialize(root)
	wf := filepath.Join(root, "workflows", "demo", "review.yaml")
	text := c.open(wf)
	buffer := func() (string, bool) {
		c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": pathURI(wf)}}) // the changes are in
		s.mu.Lock()
		defer s.mu.Unlock()
		d := s.ws.docs[wf]
		return d.text, d.dropped
	}
	change := func(version int, changes []map[string]any) {
		c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": pathURI(wf), "version": version}, "contentChanges": changes})
	}
	edit := func(line, char, endLine, endChar int, text string) map[string]any {
		return map[string]any{"range": map[string]any{"start": map[string]any{"line": line, "character": char},
			"end": map[string]any{"line": endLine, "character": endChar}}, "text": text}
	}
	// As VS Code sends a multi-cursor edit: last first. Then a CR and an
	// LF inserted apart that meet as one line break, which the next
	// change's position counts so, and a replacement across lines.
	change(2, []map[string]any{
		edit(2, 0, 2, 0, "# c\n"), edit(1, 0, 1, 0, "# b\n"), edit(0, 0, 0, 0, "# a\n"),
		edit(1, 0, 1, 0, "x\r"), edit(2, 0, 2, 0, "\n"), edit(2, 0, 3, 1, "Z"),
	})
	lines := strings.SplitAfter(text, "\n")
	want := "# a\nx\r\nZ b\n" + lines[1] + "# c\n" + strings.Join(lines[2:], "")
	if got, dropped := buffer(); got != want || dropped {
		t.Fatalf("after the changes the buffer is (dropped %v)\n%q\nwant\n%q", dropped, got, want)
	}

	// Changes at the start of a 256 KiB buffer each move what follows.
	big := strings.Repeat("# forty bytes of comment, a line of it.\n", 256<<10/40)
	change(3, []map[string]any{{"text": big}})
	var many []map[string]any
	for i := 0; i < 100; i++ {
		many = append(many, edit(0, 0, 0, 1, "#"))
	}
	change(4, many)
	if got, dropped := buffer(); got != big || dropped {
		t.Fatalf("100 changes of a 256 KiB buffer: dropped %v, changed %v", dropped, got != big)
	}
	change(5, slices.Concat(many, many, many))
	if _, dropped := buffer(); !dropped {
		t.Fatal("300 changes of a 256 KiB buffer, over a bound of 4 MiB, are applied")
	}
	if !strings.Contains(log.String(), "the 300 changes of one didChange go through more than 4194304 bytes of text") {
		t.Errorf("the dropped buffer is not logged:\n%s", log)
	}
	if m := c.call("textDocument/hover", docPos(wf, protocol.Position{Line: 1, Character: 1})); m.Error != nil || string(m.Result) != "null" {
		t.Errorf("hover on a dropped buffer: %s %+v", m.Result, m.Error)
	}
	change(6, many) // still gone: an incremental change has nothing to apply to
	change(7, []map[string]any{{"text": text}})
	if got, dropped := buffer(); got != text || dropped {
		t.Errorf("the whole text does not bring the buffer back: dropped %v", dropped)
	}

	// A change whose range ends before it starts was refused, and the
	// buffer kept as it was before the notification: one edit behind the
	// client's, which had applied the others, so every later change landed
	// on text the client no longer has. The buffer is let go instead.
	change(8, []map[string]any{edit(0, 0, 0, 0, "# kept by the client\n"), edit(2, 0, 1, 0, "")})
	if _, dropped := buffer(); !dropped {
		t.Error("a change with a reversed range left the buffer in place, out of step with the client's")
	}
	if !strings.Contains(log.String(), "change 2 of a didChange has a range that ends before it starts") {
		t.Errorf("the dropped buffer is not logged:\n%s", log)
	}
	change(9, []map[string]any{{"text": text}})
	if got, dropped := buffer(); got != text || dropped {
		t.Errorf("the whole text does not bring the buffer back after a reversed range: dropped %v", dropped)
	}
	if err := c.exit(true); err != nil {
		t.Fatal(err)
	}
}

// TestURIs: only a file URI of this machine names a document.
func TestURIs(t *testing.T) {
	for uri, want := range map[string]string{
		"file:///t/workflows/a.yaml":       "/t/workflows/a.yaml",
		"file://localhost/t/a.yaml":        "/t/a.yaml",
		"file:/t/a.yaml":                   "/t/a.yaml",
		"file:///t/x/../a%20b.yaml":        "/t/a b.yaml",
		"file:///t/a%0Ab.yaml":             "/t/a\nb.yaml",
		"file://otherhost/t/a.yaml":        "",
		"file:///t/a%00b.yaml":             "",
		"untitled:Untitled-1":              "",
		"file:t/a.yaml":                    "",
		"https://example.invalid/t/a.yaml": "",
		"file://%2Ft/a.yaml":               "",
	} {
		got, ok := uriPath(uri)
		if (want == "") == ok || got != want {
			t.Errorf("uriPath(%q) = %q, %v; want %q", uri, got, ok, want)
		}
	}
}
