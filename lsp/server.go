// Package lsp is aepflow's language server: the Language Server Protocol
// over a stream (stdio in `aepflow lsp`), for the AEP documents people
// write by hand — workflows, step maps, principles, profiles, protocols
// and lifecycles.
//
// Diagnostics are exactly what `aepflow validate` reports for a document
// in its tree: the server loads the tree with package tree, runs the same
// registry-wide checks and the engine's vocabulary check, and publishes
// each file's share, converted to LSP positions (text.go). Unsaved
// buffers win over the files on disk; a change re-reads only the changed
// document (tree.WithFile) and republishes every file whose diagnostics
// moved, so an edit of a workflow republishes its step maps and profiles.
// Hover, definition, completion, document symbols and code actions read
// the same models (workflow, stepmap, protocol, vocab, schemas).
//
// The protocol types and the request dispatch are tliron/glsp's, the
// JSON-RPC connection is sourcegraph/jsonrpc2's; the framing (codec.go)
// is the server's own, because it must bound what it reads. The package
// owns no flags, files or exit codes: cmd/aepflow/lsp.go wires stdio. It
// is not a second validator: every rule it reports is the loaders' and
// validators', and every fact it shows comes from their models.
package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/engine"
	"github.com/aepflow/aepflow/tree"
	"github.com/sourcegraph/jsonrpc2"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// Options are the server's bounds and timing. The zero value of a field
// takes its default.
type Options struct {
	// MaxMessage is the largest message body read, in bytes (default 32
	// MiB); a larger one is skipped unread and refused.
	MaxMessage int64
	// MaxDocuments is how many documents may be open at once (default
	// 512); a document opened beyond it is not tracked, and its file on
	// disk stands for it.
	MaxDocuments int
	// MaxBuffer is the largest buffer kept, in bytes (default 32 MiB). A
	// buffer over yamldoc.MaxFileSize is refused as validate refuses such
	// a file (input_too_large) but kept, so that an edit can bring it back
	// under; one that grows past MaxBuffer is dropped.
	MaxBuffer int
	// MaxChangeWork bounds the bytes one didChange notification's
	// incremental changes may go through (default 1 GiB): each change
	// reads its line and moves what follows it, so a notification of many
	// changes to a large buffer would otherwise hold the server for hours
	// (a 32 MiB message holds some 400,000 changes). Beyond it the buffer
	// is dropped, as one past MaxBuffer is. An editor's edit is far below
	// it: a thousand changes to a 4 MiB document go through about a
	// quarter of it.
	MaxChangeWork int
	// MaxTrees is how many document trees are held at once (default 16).
	MaxTrees int
	// Debounce is how long the server waits after a change before it
	// re-validates (default 150 ms); changes within it are validated
	// together. Negative means no wait.
	Debounce time.Duration
	// TreeChecks runs the checks validate runs over a loaded tree beyond
	// tree.Load's own; cmd/aepflow passes the function `aepflow validate`
	// calls, so the two cannot drift. Nil runs engine.CheckTree, which is
	// what that function runs.
	TreeChecks func(*tree.Tree) diag.List
	// Version is the server version reported to the client.
	Version string
	// Log receives the server's own log lines (nil discards them): one
	// line each, "aepflow lsp: " and the text escaped with
	// diag.EscapeText, so that a URI, a method name or a message the
	// client sent can neither break a line nor forge one.
	Log io.Writer
}

func (o Options) withDefaults() Options {
	if o.MaxMessage <= 0 {
		o.MaxMessage = 32 << 20
	}
	if o.MaxDocuments <= 0 {
		o.MaxDocuments = 512
	}
	if o.MaxBuffer <= 0 {
		o.MaxBuffer = 32 << 20
	}
	if o.MaxChangeWork <= 0 {
		o.MaxChangeWork = 1 << 30
	}
	if o.MaxTrees <= 0 {
		o.MaxTrees = 16
	}
	if o.Debounce == 0 {
		o.Debounce = 150 * time.Millisecond
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	if o.TreeChecks == nil {
		o.TreeChecks = engine.CheckTree
	}
	return o
}

// ErrNoShutdown is what Serve returns when the client sent `exit` without
// `shutdown` first, or the stream ended without either: the LSP asks the
// server to exit with status 1 then.
var ErrNoShutdown = errors.New("lsp: the client exited without shutdown")

// Serve runs the language server on stream until the client sends `exit`
// or the stream ends. It returns nil after a `shutdown` then `exit`,
// ErrNoShutdown otherwise, or the framing error that ended the stream.
func Serve(ctx context.Context, stream io.ReadWriteCloser, opts Options) error {
	return newServer(opts.withDefaults()).serve(ctx, stream)
}

// serve runs s on stream; see Serve.
func (s *server) serve(ctx context.Context, stream io.ReadWriteCloser) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	broken := &framingError{}
	conn := jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(stream, codec{maxBody: s.opts.MaxMessage, broken: broken}),
		jsonrpc2.HandlerWithError(s.handle), jsonrpc2.SetLogger(logger{s.log}))
	if s.connected != nil {
		s.connected()
	}
	s.mu.Lock()
	if s.conn == nil {
		s.conn = conn
	}
	s.mu.Unlock()
	select {
	case <-conn.DisconnectNotify():
	case <-ctx.Done():
		conn.Close()
	}
	s.stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.exitErr != nil {
		return s.exitErr
	}
	// What follows `exit` is not the session's: bytes after it (a trailing
	// newline) may break the framing as the reader goes on, harmlessly.
	if err := broken.get(); err != nil && !s.exited {
		return err
	}
	if !s.shutdown {
		return ErrNoShutdown
	}
	return nil
}

// logSink writes the server's log lines. Each is one line: the text is
// escaped (diag.EscapeText), as every line aepflow prints is, because it
// quotes what the client controls (a URI, a method name, an error about
// its message), which could otherwise end the line early or forge
// another. The handlers, a flush and jsonrpc2 log from their own
// goroutines; mu keeps their lines whole.
type logSink struct {
	mu sync.Mutex
	w  io.Writer
}

// line writes one log line.
func (l *logSink) line(text string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, "aepflow lsp: %s\n", diag.EscapeText(text))
}

// logger adapts the server's log to jsonrpc2.Logger, whose lines end in
// a newline of their own and quote the client's method names and ids.
type logger struct{ log *logSink }

// Its "protocol error" line is dropped: that error is the codec's, which
// Serve returns (framingError), so the caller reports it once.
func (l logger) Printf(format string, v ...any) {
	if strings.HasPrefix(format, "jsonrpc2: protocol error") {
		return
	}
	l.log.line(strings.TrimSuffix(fmt.Sprintf(format, v...), "\n"))
}

// server is one connection's state. mu guards every field below it; the
// handlers run one at a time, in the order the client sent them (the
// jsonrpc2 handler is synchronous), and validation runs beside them in
// flush, which swaps finished trees in under mu.
type server struct {
	opts    Options
	handler protocol.Handler
	log     *logSink

	mu          sync.Mutex
	conn        *jsonrpc2.Conn
	initialized bool
	shutdown    bool
	exitErr     error
	exited      bool // the client sent `exit`
	caps        protocol.ClientCapabilities
	ws          *workspace
	timer       *time.Timer
	stopped     bool

	flushMu sync.Mutex // one validation at a time

	// panics lets a handler's panic through instead of answering it with
	// an internal error; the fuzz targets set it, so a panic is a finding.
	panics bool
	// connected, when set, runs in serve between making the connection
	// and storing it: a test holds serve there, as a busy machine can.
	connected func()
}

func newServer(opts Options) *server {
	log := &logSink{w: opts.Log}
	s := &server{opts: opts, log: log, ws: newWorkspace(opts, log)}
	s.handler = protocol.Handler{
		Initialize:                     s.initialize,
		Initialized:                    s.initializedNote,
		Shutdown:                       s.shutdownRequest,
		SetTrace:                       func(*glsp.Context, *protocol.SetTraceParams) error { return nil },
		CancelRequest:                  func(*glsp.Context, *protocol.CancelParams) error { return nil },
		TextDocumentDidOpen:            s.didOpen,
		TextDocumentDidChange:          s.didChange,
		TextDocumentDidSave:            s.didSave,
		TextDocumentDidClose:           s.didClose,
		WorkspaceDidChangeWatchedFiles: s.didChangeWatchedFiles,
		WorkspaceDidChangeWorkspaceFolders: func(_ *glsp.Context, p *protocol.DidChangeWorkspaceFoldersParams) error {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.ws.changeFolders(p.Event.Added, p.Event.Removed)
			return nil
		},
		WorkspaceDidChangeConfiguration: func(*glsp.Context, *protocol.DidChangeConfigurationParams) error { return nil },
		TextDocumentHover:               s.hover,
		TextDocumentDefinition:          s.definition,
		TextDocumentCompletion:          s.completion,
		TextDocumentDocumentSymbol:      s.documentSymbol,
		TextDocumentCodeAction:          s.codeAction,
	}
	return s
}

// handle answers one message: the glsp dispatch, with the LSP's error
// codes, a refusal of whatever the codec could not accept, and a recover
// so that no message, however hostile, takes the server down.
func (s *server) handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (result any, err error) {
	// jsonrpc2 reads, and calls handle, from within NewConn: serve may not
	// have stored the connection yet when the first messages are handled
	// and a flush publishes their diagnostics (on a busy machine they were
	// dropped, conn being nil, and never sent again).
	s.mu.Lock()
	if s.conn == nil {
		s.conn = conn
	}
	s.mu.Unlock()
	defer func() {
		if s.panics {
			return
		}
		if r := recover(); r != nil {
			// One line, the stack's line breaks escaped with the rest.
			s.logf("internal error on %s: %v\n%s", req.Method, r, debug.Stack())
			result, err = nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: fmt.Sprintf("aepflow lsp: internal error on %s", req.Method)}
		}
	}()
	gctx := &glsp.Context{
		Method: req.Method,
		Notify: func(method string, params any) { s.notify(method, params) },
		Call:   func(string, any, any) {},
	}
	if req.Params != nil {
		gctx.Params = *req.Params
	}
	switch {
	case req.Method == methodRefused:
		return nil, s.refused(req)
	case req.Method == "exit":
		s.mu.Lock()
		s.exited = true
		if !s.shutdown {
			s.exitErr = ErrNoShutdown
		}
		s.mu.Unlock()
		conn.Close()
		return nil, nil
	case s.isShutdown() && req.Method != "shutdown":
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: "the server is shutting down"}
	case !s.isInitialized() && req.Method != "initialize":
		return nil, &jsonrpc2.Error{Code: codeServerNotInitialized, Message: "the server is not initialized"}
	}
	if gctx.Params == nil && req.Method != "shutdown" {
		gctx.Params = json.RawMessage("{}")
	}
	r, validMethod, validParams, err := s.handler.Handle(gctx)
	switch {
	case !validMethod && req.Notif && strings.HasPrefix(req.Method, "$/"):
		return nil, nil // the LSP lets a server ignore these: no log line
	case !validMethod:
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "method not supported: " + req.Method}
	case !validParams:
		msg := "invalid params"
		if err != nil {
			msg += ": " + err.Error()
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: msg}
	case err != nil:
		var rpcErr *jsonrpc2.Error
		if errors.As(err, &rpcErr) {
			return nil, rpcErr
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: err.Error()}
	}
	return r, nil
}

// codeServerNotInitialized is the LSP's error for a request before
// `initialize`.
const codeServerNotInitialized = -32002

// refused answers the stand-in of a message the codec would not accept:
// an error when the message had an id, a log line for the client
// otherwise.
func (s *server) refused(req *jsonrpc2.Request) error {
	var r refusal
	if req.Params != nil {
		_ = json.Unmarshal(*req.Params, &r)
	}
	if req.Notif {
		s.logf("refused a message: %s", r.Reason)
		s.notify(protocol.ServerWindowLogMessage, protocol.LogMessageParams{Type: protocol.MessageTypeError, Message: "aepflow lsp refused a message: " + diag.EscapeText(r.Reason)})
		return nil
	}
	return &jsonrpc2.Error{Code: r.Code, Message: r.Reason}
}

func (s *server) isInitialized() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.initialized
}

func (s *server) isShutdown() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.shutdown
}

// logf writes one log line (see logSink).
func (s *server) logf(format string, args ...any) { s.log.line(fmt.Sprintf(format, args...)) }

// notify sends a notification; a connection already closed is not an
// error worth more than a log line.
func (s *server) notify(method string, params any) {
	s.mu.Lock()
	conn := s.conn
	s.mu.Unlock()
	if conn == nil {
		return
	}
	if err := conn.Notify(context.Background(), method, params); err != nil && !errors.Is(err, jsonrpc2.ErrClosed) {
		s.logf("cannot send %s: %v", method, err)
	}
}

func (s *server) initialize(_ *glsp.Context, p *protocol.InitializeParams) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.initialized {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: "the server is already initialized"}
	}
	s.initialized = true
	s.caps = p.Capabilities
	var folders []protocol.WorkspaceFolder
	folders = append(folders, p.WorkspaceFolders...)
	if len(folders) == 0 && p.RootURI != nil {
		folders = append(folders, protocol.WorkspaceFolder{URI: *p.RootURI})
	}
	s.ws.changeFolders(folders, nil)
	s.ws.snippets = p.Capabilities.TextDocument != nil && p.Capabilities.TextDocument.Completion != nil &&
		p.Capabilities.TextDocument.Completion.CompletionItem != nil &&
		p.Capabilities.TextDocument.Completion.CompletionItem.SnippetSupport != nil &&
		*p.Capabilities.TextDocument.Completion.CompletionItem.SnippetSupport
	syncKind := protocol.TextDocumentSyncKindIncremental
	yes := true
	version := s.opts.Version
	return protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync: protocol.TextDocumentSyncOptions{
				OpenClose: &yes,
				Change:    &syncKind,
				Save:      true,
			},
			HoverProvider:          true,
			DefinitionProvider:     true,
			DocumentSymbolProvider: true,
			CodeActionProvider: protocol.CodeActionOptions{
				CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix},
			},
			CompletionProvider: &protocol.CompletionOptions{TriggerCharacters: []string{":", " ", "."}},
			Workspace: &protocol.ServerCapabilitiesWorkspace{
				WorkspaceFolders: &protocol.WorkspaceFoldersServerCapabilities{Supported: &yes, ChangeNotifications: &protocol.BoolOrString{Value: true}},
			},
		},
		ServerInfo: &protocol.InitializeResultServerInfo{Name: "aepflow", Version: &version},
	}, nil
}

// initializedNote asks a client that registers file watchers on request
// to report changes of the documents on disk, so that a file edited
// outside the editor (a checkout, a generator) is read again. The call
// runs beside the handlers: its answer arrives through the same reader.
func (s *server) initializedNote(*glsp.Context, *protocol.InitializedParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.caps.Workspace
	if w == nil || w.DidChangeWatchedFiles == nil || w.DidChangeWatchedFiles.DynamicRegistration == nil ||
		!*w.DidChangeWatchedFiles.DynamicRegistration || s.conn == nil {
		return nil
	}
	conn := s.conn
	params := protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID: "aepflow-documents", Method: string(protocol.MethodWorkspaceDidChangeWatchedFiles),
		RegisterOptions: protocol.DidChangeWatchedFilesRegistrationOptions{Watchers: []protocol.FileSystemWatcher{
			{GlobPattern: "**/*.{yaml,yml,json}"},
		}},
	}}}
	go func() {
		var ignored any
		if err := conn.Call(context.Background(), string(protocol.ServerClientRegisterCapability), params, &ignored); err != nil {
			s.logf("the client did not register the file watchers: %v", err)
		}
	}()
	return nil
}

func (s *server) shutdownRequest(*glsp.Context) error {
	s.mu.Lock()
	s.shutdown = true
	s.mu.Unlock()
	s.stop()
	return nil
}

// stop cancels a pending validation and waits for a running one.
func (s *server) stop() {
	s.mu.Lock()
	s.stopped = true
	if s.timer != nil {
		s.timer.Stop()
	}
	s.mu.Unlock()
	s.flushMu.Lock()
	s.flushMu.Unlock() //nolint:staticcheck // waits for a running flush
}
