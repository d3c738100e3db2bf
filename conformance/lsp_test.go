package conformance

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/internal/hookmatrix"
)

func init() { register(lspCases...) }

var lspCases = []Case{
	// The built binary over its stdin and stdout, as an editor runs it, on
	// a copy of the project's fixture tree: a typo'd state in an unsaved
	// buffer is published with exactly what `aepflow validate` reports for
	// the same bytes on disk, the step map that depends on the workflow is
	// republished, a hover reads the buffer, and shutdown then exit ends
	// the session with status 0.
	{Name: "lsp/session", Check: lspSession},
}

// lspPeer is the client end of `aepflow lsp` run as a process.
type lspPeer struct {
	t    *testing.T
	in   io.WriteCloser
	out  *bufio.Reader
	id   int
	seen []map[string]json.RawMessage
}

func (p *lspPeer) send(msg map[string]any) {
	p.t.Helper()
	msg["jsonrpc"] = "2.0"
	body, err := json.Marshal(msg)
	if err != nil {
		p.t.Fatal(err)
	}
	if _, err := fmt.Fprintf(p.in, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		p.t.Fatalf("write to aepflow lsp: %v", err)
	}
}

// next reads one message from the server.
func (p *lspPeer) next() map[string]json.RawMessage {
	p.t.Helper()
	n := -1
	for {
		line, err := p.out.ReadString('\n')
		if err != nil {
			p.t.Fatalf("aepflow lsp closed its output: %v", err)
		}
		if line = strings.TrimRight(line, "\r\n"); line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			n, _ = strconv.Atoi(v)
		}
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(p.out, body); err != nil {
		p.t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		p.t.Fatalf("not JSON: %q", body)
	}
	return m
}

// call sends a request and returns its result, keeping what else arrives.
func (p *lspPeer) call(method string, params any) json.RawMessage {
	p.t.Helper()
	p.id++
	p.send(map[string]any{"id": p.id, "method": method, "params": params})
	for {
		m := p.next()
		if _, isResponse := m["method"]; !isResponse && string(m["id"]) == strconv.Itoa(p.id) {
			if m["error"] != nil {
				p.t.Fatalf("%s: %s", method, m["error"])
			}
			return m["result"]
		}
		p.seen = append(p.seen, m)
	}
}

type lspDiagnostic struct {
	Range struct {
		Start struct{ Line, Character int }
	}
	Code    string
	Message string
}

// diagnostics waits for a publication for uri that satisfies ok.
func (p *lspPeer) diagnostics(uri string, ok func([]lspDiagnostic) bool) []lspDiagnostic {
	p.t.Helper()
	for i := 0; ; i++ {
		var m map[string]json.RawMessage
		if i < len(p.seen) {
			m = p.seen[i]
		} else {
			m = p.next()
			p.seen = append(p.seen, m)
		}
		if string(m["method"]) != `"textDocument/publishDiagnostics"` {
			continue
		}
		var params struct {
			URI         string
			Diagnostics []lspDiagnostic
		}
		if json.Unmarshal(m["params"], &params) == nil && params.URI == uri && ok(params.Diagnostics) {
			p.seen = slices.Delete(p.seen, i, i+1)
			return params.Diagnostics
		}
	}
}

func fileURI(path string) string { return (&url.URL{Scheme: "file", Path: path}).String() }

func lspSession(t *testing.T, e *Env) {
	root, mirror := e.WorkPath("tree"), e.WorkPath("mirror")
	hookmatrix.CopyDir(t, e.TestdataPath("project", "tree"), root)
	hookmatrix.CopyDir(t, e.TestdataPath("project", "tree"), mirror)
	wf := filepath.Join(root, "workflows", "fx", "flow.yaml")
	steps := filepath.Join(root, "drivers", "fx", "flow.yaml")
	text := string(readFile(t, wf))
	broken := strings.Replace(text, "\n  implement:\n", "\n  implemnet:\n", 1)
	if broken == text {
		t.Fatal("the fixture workflow has no `implement:` state")
	}

	cmd := exec.Command(filepath.Join(e.Bin, "aepflow"), "lsp")
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	p := &lspPeer{t: t, in: in, out: bufio.NewReader(out)}
	p.call("initialize", map[string]any{"processId": nil, "rootUri": fileURI(root), "capabilities": map[string]any{}})
	p.send(map[string]any{"method": "initialized", "params": map[string]any{}})
	p.send(map[string]any{"method": "textDocument/didOpen", "params": map[string]any{"textDocument": map[string]any{
		"uri": fileURI(wf), "languageId": "yaml", "version": 1, "text": broken}}})

	// What validate reports for the same bytes on disk, per file.
	if err := os.WriteFile(filepath.Join(mirror, "workflows", "fx", "flow.yaml"), []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	v := exec.Command(filepath.Join(e.Bin, "aepflow"), "validate", "--root", mirror, "--format", "json")
	data, _ := v.Output()
	var want []struct {
		Code, File, Message string
		Line, Column        int
	}
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("validate --format json: %v\n%s", err, data)
	}
	for _, file := range []string{wf, steps} {
		var expected []string
		mirrored := filepath.Join(mirror, strings.TrimPrefix(file, root))
		for _, d := range want {
			if d.File == mirrored {
				expected = append(expected, fmt.Sprintf("%d:%d %s %s", d.Line, d.Column, d.Code, d.Message))
			}
		}
		if len(expected) == 0 {
			t.Fatalf("validate reports nothing for %s; the case tests nothing", filepath.Base(filepath.Dir(file)))
		}
		got := p.diagnostics(fileURI(file), func(ds []lspDiagnostic) bool { return len(ds) >= len(expected) })
		var published []string
		for _, d := range got {
			msg, _, _ := strings.Cut(d.Message, "\n")
			published = append(published, fmt.Sprintf("%d:%d %s %s", d.Range.Start.Line+1, d.Range.Start.Character+1, d.Code, msg))
		}
		if !slices.Equal(published, expected) {
			t.Errorf("%s: published\n  %s\nvalidate reports\n  %s", file, strings.Join(published, "\n  "), strings.Join(expected, "\n  "))
		}
	}

	// Hover on the initial state, from the buffer.
	line := strings.Count(broken[:strings.Index(broken, "initial: receive")], "\n")
	var hover struct{ Contents struct{ Value string } }
	if err := json.Unmarshal(p.call("textDocument/hover", map[string]any{
		"textDocument": map[string]any{"uri": fileURI(wf)}, "position": map[string]any{"line": line, "character": 10}}), &hover); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(hover.Contents.Value, "**state `receive`** — Receive") {
		t.Errorf("hover: %q", hover.Contents.Value)
	}

	if got := p.call("shutdown", nil); string(got) != "null" {
		t.Errorf("shutdown: %s", got)
	}
	p.send(map[string]any{"method": "exit"})
	in.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("aepflow lsp after shutdown and exit: %v", err)
	}
}
