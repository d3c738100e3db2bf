package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// client drives a real server over a pipe with the protocol's bytes: it
// writes framed JSON-RPC messages and reads the server's frames back.
type client struct {
	t      testing.TB
	w      *io.PipeWriter
	in     chan message
	done   chan error
	notes  []message // notifications read while waiting for something else
	nextID int
}

// message is one JSON-RPC message from the server.
type message struct {
	ID     *json.RawMessage `json:"id"`
	Method string           `json:"method"`
	Params json.RawMessage  `json:"params"`
	Result json.RawMessage  `json:"result"`
	Error  *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

type pipeStream struct {
	io.Reader
	io.Writer
}

func (pipeStream) Close() error { return nil }

// startServer runs Serve on a pipe and returns the client end.
func startServer(t testing.TB, opts Options) *client {
	return startWith(t, newServer(opts.withDefaults()))
}

// startWith runs a server made by the test on a pipe.
func startWith(t testing.TB, s *server) *client {
	cr, sw := io.Pipe() // server → client
	sr, cw := io.Pipe() // client → server
	c := &client{t: t, w: cw, in: make(chan message, 1024), done: make(chan error, 1)}
	go func() {
		err := s.serve(context.Background(), pipeStream{sr, sw})
		sw.Close()
		c.done <- err
	}()
	go func() {
		defer close(c.in)
		r := bufio.NewReader(cr)
		for {
			body, err := readFrame(r)
			if err != nil {
				return
			}
			var m message
			if err := json.Unmarshal(body, &m); err != nil {
				t.Errorf("the server sent a body that is not JSON: %q", body)
				return
			}
			c.in <- m
		}
	}()
	t.Cleanup(func() { cw.Close(); cr.Close() })
	return c
}

// readFrame reads one Content-Length framed body.
func readFrame(r *bufio.Reader) ([]byte, error) {
	n := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			n, _ = strconv.Atoi(v)
		}
	}
	body := make([]byte, n)
	_, err := io.ReadFull(r, body)
	return body, err
}

// raw writes bytes to the server as they are.
func (c *client) raw(b string) {
	c.t.Helper()
	if _, err := io.WriteString(c.w, b); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

// frame writes one framed body.
func (c *client) frame(body string) {
	c.raw(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body))
}

func (c *client) send(v any) {
	c.t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		c.t.Fatal(err)
	}
	c.frame(string(data))
}

func (c *client) notify(method string, params any) {
	c.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// call sends a request and returns its response, keeping the notifications
// that arrive meanwhile.
func (c *client) call(method string, params any) message {
	c.t.Helper()
	c.nextID++
	id := c.nextID
	req := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		req["params"] = params
	}
	c.send(req)
	return c.response(strconv.Itoa(id))
}

// replyWait bounds how long the client waits for any one message: a
// server that never sends it fails the test, naming what was awaited,
// instead of holding it until the test binary's own timeout.
const replyWait = 30 * time.Second

// next returns the server's next message, and false when the stream has
// ended; it fails the test after replyWait.
func (c *client) next(awaited string) (message, bool) {
	c.t.Helper()
	timer := time.NewTimer(replyWait)
	defer timer.Stop()
	select {
	case m, ok := <-c.in:
		return m, ok
	case <-timer.C:
		c.t.Fatalf("no %s from the server within %v", awaited, replyWait)
		return message{}, false
	}
}

// response waits for the response whose id is the JSON text id.
func (c *client) response(id string) message {
	c.t.Helper()
	for m, ok := c.next("response to " + id); ok; m, ok = c.next("response to " + id) {
		if m.ID != nil && m.Method == "" {
			if string(*m.ID) != id {
				c.t.Fatalf("response to %s while waiting for %s", *m.ID, id)
			}
			return m
		}
		c.notes = append(c.notes, m)
	}
	c.t.Fatalf("the server closed the stream while %s was pending", id)
	return message{}
}

// result calls and decodes the result into out, failing on an error.
func (c *client) result(method string, params, out any) {
	c.t.Helper()
	m := c.call(method, params)
	if m.Error != nil {
		c.t.Fatalf("%s: error %d %s", method, m.Error.Code, m.Error.Message)
	}
	if err := json.Unmarshal(m.Result, out); err != nil {
		c.t.Fatalf("%s: result %s: %v", method, m.Result, err)
	}
}

// note waits for a notification of method that satisfies ok (nil: any),
// looking first at those already read.
func (c *client) note(method string, ok func(json.RawMessage) bool) json.RawMessage {
	c.t.Helper()
	for i, m := range c.notes {
		if m.Method == method && (ok == nil || ok(m.Params)) {
			c.notes = append(c.notes[:i:i], c.notes[i+1:]...)
			return m.Params
		}
	}
	for m, more := c.next(method); more; m, more = c.next(method) {
		if m.Method == method && (ok == nil || ok(m.Params)) {
			return m.Params
		}
		c.notes = append(c.notes, m)
	}
	c.t.Fatalf("the server closed the stream before a %s", method)
	return nil
}

// diagnostics waits for a wirePublication for uri that satisfies ok and
// returns its diagnostics. Publications for uri that fail ok are dropped:
// a debounced server may publish an intermediate state first.
func (c *client) diagnostics(uri string, ok func([]wireDiagnostic) bool) []wireDiagnostic {
	c.t.Helper()
	var got wirePublication
	c.note(protocol.ServerTextDocumentPublishDiagnostics, func(p json.RawMessage) bool {
		var params wirePublication
		if json.Unmarshal(p, &params) != nil || params.URI != uri {
			return false
		}
		got = params
		return ok(params.Diagnostics)
	})
	return got.Diagnostics
}

// wireDiagnostic is a published diagnostic as the client reads it (glsp's
// IntegerOrString does not decode, its UnmarshalJSON having a value
// receiver; the server only encodes it).
type wireDiagnostic struct {
	Range              protocol.Range                          `json:"range"`
	Severity           *protocol.DiagnosticSeverity            `json:"severity"`
	Code               string                                  `json:"code"`
	CodeDescription    *protocol.CodeDescription               `json:"codeDescription"`
	Source             *string                                 `json:"source"`
	Message            string                                  `json:"message"`
	RelatedInformation []protocol.DiagnosticRelatedInformation `json:"relatedInformation"`
}

type wirePublication struct {
	URI         string           `json:"uri"`
	Version     *int             `json:"version"`
	Diagnostics []wireDiagnostic `json:"diagnostics"`
}

// initialize runs the handshake with root as the workspace folder.
func (c *client) initialize(root string) {
	c.t.Helper()
	var res protocol.InitializeResult
	c.result("initialize", map[string]any{
		"processId": nil, "rootUri": pathURI(root),
		"workspaceFolders": []map[string]string{{"uri": pathURI(root), "name": "tree"}},
		"capabilities": map[string]any{"textDocument": map[string]any{
			"completion":     map[string]any{"completionItem": map[string]any{"snippetSupport": true}},
			"documentSymbol": map[string]any{"hierarchicalDocumentSymbolSupport": true},
		}},
	}, &res)
	if res.ServerInfo == nil || res.ServerInfo.Name != "aepflow" {
		c.t.Fatalf("server info: %+v", res.ServerInfo)
	}
	c.notify("initialized", map[string]any{})
}

// open sends didOpen with the file's bytes on disk.
func (c *client) open(path string) string {
	c.t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		c.t.Fatal(err)
	}
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": pathURI(path), "languageId": "yaml", "version": 1, "text": string(data)}})
	return string(data)
}

// change replaces the whole text of an open document.
func (c *client) change(path string, version int, text string) {
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": pathURI(path), "version": version},
		"contentChanges": []map[string]any{{"text": text}}})
}

// exit ends the session and returns what Serve returned.
func (c *client) exit(shutdown bool) error {
	c.t.Helper()
	if shutdown {
		if m := c.call("shutdown", nil); m.Error != nil || string(m.Result) != "null" {
			c.t.Fatalf("shutdown: %+v %s", m.Error, m.Result)
		}
	}
	c.notify("exit", nil)
	return <-c.done
}

// copyTree copies a fixture tree into a temporary directory (tests edit
// files on disk) and returns its absolute path.
func copyTree(t testing.TB, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if e.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}
