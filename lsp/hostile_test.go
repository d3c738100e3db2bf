package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/internal/fsio"
	"github.com/aepflow/aepflow/internal/testkit"
	"github.com/aepflow/aepflow/yamldoc"
	"github.com/sourcegraph/jsonrpc2"
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
