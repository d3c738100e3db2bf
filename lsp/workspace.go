package lsp

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/tree"
	"github.com/aepflow/aepflow/yamldoc"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// document is one open buffer.
type document struct {
	uri     string
	path    string
	version int32
	text    string
	// root is the tree the document belongs to, "" when it lies in no
	// tree row (it is then validated on its own, as `validate FILE`).
	root string
	// dropped says the buffer grew past MaxBuffer and was let go: the file
	// on disk stands for it until the client sends the whole text again.
	dropped bool
}

// treeState is one loaded tree and the diagnostics validate reports for it.
type treeState struct {
	tree  *tree.Tree
	diags diag.List
}

// workspace is what the server knows: folders, open documents, loaded
// trees, the changes not yet validated and what was last published.
type workspace struct {
	opts      Options
	log       *logSink
	folders   []string
	docs      map[string]*document
	trees     map[string]*treeState
	singles   map[string]single
	pending   map[string]map[string]bool // root ("" for lone documents) → changed files
	published map[string]sent            // file path → what was last sent for it
	snippets  bool
	refusedAt map[string]bool // roots already refused for MaxTrees, logged once
	// loading holds the roots whose first load is in flight: a file that
	// changes on disk meanwhile is not read by any held tree yet, and the
	// load may have read it before the change.
	loading map[string]bool
}

func newWorkspace(opts Options, log *logSink) *workspace {
	return &workspace{
		opts:      opts,
		log:       log,
		docs:      map[string]*document{},
		trees:     map[string]*treeState{},
		singles:   map[string]single{},
		pending:   map[string]map[string]bool{},
		published: map[string]sent{},
		refusedAt: map[string]bool{},
		loading:   map[string]bool{},
	}
}

// uriPath returns the file path of a file: URI, or false for any other:
// one that names another host (file://host/path is that host's file, not
// this machine's) or a path no file can have (a NUL byte).
func uriPath(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || u.Path == "" || !filepath.IsAbs(u.Path) ||
		(u.Host != "" && !strings.EqualFold(u.Host, "localhost")) || strings.IndexByte(u.Path, 0) >= 0 {
		return "", false
	}
	return filepath.Clean(u.Path), true
}

// pathURI returns the file: URI of an absolute path.
func pathURI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// logf writes one log line (see logSink).
func (w *workspace) logf(format string, args ...any) { w.log.line(fmt.Sprintf(format, args...)) }

func (w *workspace) changeFolders(added, removed []protocol.WorkspaceFolder) {
	for _, f := range removed {
		if p, ok := uriPath(f.URI); ok {
			w.folders = slices.DeleteFunc(w.folders, func(x string) bool { return x == p })
		}
	}
	for _, f := range added {
		if p, ok := uriPath(f.URI); ok && !slices.Contains(w.folders, p) {
			w.folders = append(w.folders, p)
		}
	}
}

// rootOf finds the tree a file belongs to: a workspace folder whose rows
// hold it, else the nearest directory above it that does (the folder that
// holds `workflows/`, `drivers/`, … with the file inside one of them).
// It returns "" when no tree row holds the file.
func (w *workspace) rootOf(path string) string {
	for _, f := range w.folders {
		if inRow(f, path) {
			return f
		}
	}
	for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
		if inRow(dir, path) {
			return dir
		}
		if dir == filepath.Dir(dir) {
			return ""
		}
	}
}

// inRow reports whether Load of root would read path.
func inRow(root, path string) bool {
	_, ok := tree.RowOf(root, path)
	return ok
}

// change records that path changed and needs validating.
func (w *workspace) change(root, path string) {
	if w.pending[root] == nil {
		w.pending[root] = map[string]bool{}
	}
	w.pending[root][path] = true
}

// single is a lone document's diagnostics and the text they were computed
// from.
type single struct {
	diags diag.List
	text  string
	kind  tree.Kind
}

// job is one tree's (or the lone documents') share of a flush, taken
// under the server's lock so that it can run without it.
type job struct {
	root     string
	checks   func(*tree.Tree) diag.List
	base     *treeState
	overlays map[string]*string // path → buffer, nil for "read the disk"
	versions map[string]int32
}

// takeJobs turns the pending changes into jobs and clears them.
func (w *workspace) takeJobs() []job {
	var jobs []job
	for _, root := range slices.Sorted(maps.Keys(w.pending)) {
		j := job{root: root, checks: w.opts.TreeChecks, base: w.trees[root], overlays: map[string]*string{}, versions: map[string]int32{}}
		files := w.pending[root]
		if j.base == nil && root != "" {
			if !w.admitTree(root) {
				w.logf("not loading the tree at %s: %d trees with open documents are held already", root, len(w.trees))
				continue
			}
			files = map[string]bool{}
			for p, d := range w.docs {
				if d.root == root {
					files[p] = true
				}
			}
			w.loading[root] = true
		}
		for p := range files {
			if d := w.docs[p]; d != nil && !d.dropped && d.root == root {
				text := d.text
				j.overlays[p] = &text
				j.versions[p] = d.version
			} else {
				j.overlays[p] = nil
			}
		}
		jobs = append(jobs, j)
	}
	clear(w.pending)
	return jobs
}

// admitTree makes room for one more tree, evicting one that no open
// document belongs to; it reports false when every held tree is in use.
func (w *workspace) admitTree(root string) bool {
	if len(w.trees) < w.opts.MaxTrees {
		return true
	}
	for _, r := range slices.Sorted(maps.Keys(w.trees)) {
		if !slices.ContainsFunc(mapValues(w.docs), func(d *document) bool { return d.root == r }) {
			delete(w.trees, r)
			return true
		}
	}
	return false
}

// run validates one job's tree (or lone documents) without the lock.
func (j job) run() (*treeState, map[string]*single) {
	if j.root == "" {
		singles := map[string]*single{}
		for p, text := range j.overlays {
			if text == nil {
				singles[p] = nil // closed
				continue
			}
			doc, diags := tree.LoadDocument(p, []byte(*text), "")
			one := &single{text: *text}
			if doc != nil {
				one.kind = doc.Kind
			} else if parsed, pds := yamldoc.Parse(p, []byte(*text)); parsed != nil {
				one.kind = tree.DetectKind(p, parsed.Root)
				if one.kind == "" && !pds.HasErrors() && !slices.Contains(diags.Codes(), tree.CodeMisplaced) {
					// Not an AEP document (no kind to tell, an empty
					// file among them): say nothing about it.
					diags = nil
				}
			}
			one.diags = diags.Sorted()
			singles[p] = one
		}
		return nil, singles
	}
	var t *tree.Tree
	var diags diag.List
	if j.base == nil {
		t, diags = tree.Load(j.root)
	} else {
		t, diags = j.base.tree, j.base.diags
	}
	for _, p := range slices.Sorted(maps.Keys(j.overlays)) {
		var next *tree.Tree
		var ds diag.List
		var ok bool
		if text := j.overlays[p]; text != nil {
			next, ds, ok = t.WithFile(p, []byte(*text))
		} else {
			next, ds, ok = t.Reread(p)
		}
		if ok { // a path no row holds changes nothing
			t, diags = next, ds
		}
	}
	if j.base == nil || len(j.overlays) > 0 {
		// The checks validate runs beyond Load (cmd/aepflow/validate.go).
		diags = slices.Clone(diags)
		diags.Extend(j.checks(t))
	}
	return &treeState{tree: t, diags: diags.Sorted()}, nil
}

// sent is what was last published for a file: the URI it went to and
// the diagnostics, as JSON.
type sent struct {
	uri, data string
}

// uriOf returns the URI a file's diagnostics are published under: the one
// the client opened it by, when it is open (a client matches diagnostics
// to its documents by URI, and its spelling may differ from this server's:
// `…/demo/../demo/review.yaml`, other percent-encodings), else the file's
// own.
func (w *workspace) uriOf(path string) string {
	if d := w.docs[path]; d != nil && d.uri != "" {
		return d.uri
	}
	return pathURI(path)
}

// publication is one publishDiagnostics notification to send.
type publication struct {
	params protocol.PublishDiagnosticsParams
}

// install takes a job's result in and returns the notifications whose
// content changed: every file of the tree (and every open document of it)
// whose diagnostics differ from what was last sent, so an edit of one
// document republishes the others it affects.
func (w *workspace) install(j job, ts *treeState, singles map[string]*single) []publication {
	byFile := map[string][]protocol.Diagnostic{}
	var files []string
	if j.root == "" {
		for p, one := range singles {
			if d := w.docs[p]; d != nil && d.root == "" && one != nil {
				w.singles[p] = *one
				byFile[p] = convertAll(one.diags, diag.Sources{p: []byte(one.text)}, map[string]tree.Kind{p: one.kind})
			} else {
				delete(w.singles, p) // closed: clear it
			}
			files = append(files, p)
		}
	} else {
		w.trees[j.root] = ts
		delete(w.loading, j.root)
		byFile = treeDiagnostics(ts, w.openIn(j.root))
		for _, f := range ts.tree.Files {
			files = append(files, f.Path)
		}
		for p := range byFile {
			files = append(files, p)
		}
		for p := range w.published {
			if w.rootOfKnown(p) == j.root {
				files = append(files, p)
			}
		}
	}
	slices.Sort(files)
	files = slices.Compact(files)
	var out []publication
	for _, p := range files {
		list := byFile[p]
		if list == nil {
			list = []protocol.Diagnostic{}
		}
		uri := w.uriOf(p)
		data, _ := json.Marshal(list)
		prev, ok := w.published[p]
		if ok && prev.uri != uri {
			// Opened or closed under another spelling of its URI: what
			// the old one shows is cleared, and the file starts afresh.
			out = append(out, publication{protocol.PublishDiagnosticsParams{URI: prev.uri, Diagnostics: []protocol.Diagnostic{}}})
			delete(w.published, p)
			ok = false
		}
		if (ok && prev.data == string(data)) || (!ok && len(list) == 0) {
			continue
		}
		if len(list) == 0 {
			delete(w.published, p)
		} else {
			w.published[p] = sent{uri: uri, data: string(data)}
		}
		params := protocol.PublishDiagnosticsParams{URI: uri, Diagnostics: list}
		if v, ok := j.versions[p]; ok && v >= 0 {
			u := protocol.UInteger(v)
			params.Version = &u
		}
		out = append(out, publication{params})
	}
	return out
}

// rootOfKnown returns the root of an open document, or of the held tree
// that reads p.
func (w *workspace) rootOfKnown(p string) string {
	if d := w.docs[p]; d != nil {
		return d.root
	}
	for r, ts := range w.trees {
		if _, ok := ts.tree.RowOf(p); ok {
			return r
		}
	}
	return ""
}

// openIn returns the open documents of root, by path.
func (w *workspace) openIn(root string) map[string]bool {
	out := map[string]bool{}
	for p, d := range w.docs {
		if d.root == root {
			out[p] = true
		}
	}
	return out
}

// schedule arranges a flush after the debounce interval, restarting the
// wait when one is pending (so a burst of changes is validated once).
func (s *server) schedule() {
	if s.stopped {
		return
	}
	wait := max(s.opts.Debounce, 0)
	if s.timer == nil {
		s.timer = time.AfterFunc(wait, s.flush)
		return
	}
	s.timer.Reset(wait)
}

// flush validates every pending change and publishes what moved.
func (s *server) flush() {
	s.flushMu.Lock()
	defer s.flushMu.Unlock()
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		return
	}
	jobs := s.ws.takeJobs()
	s.mu.Unlock()
	for _, j := range jobs {
		ts, singles := j.run()
		s.mu.Lock()
		pubs := s.ws.install(j, ts, singles)
		s.mu.Unlock()
		for _, p := range pubs {
			s.notify(protocol.ServerTextDocumentPublishDiagnostics, p.params)
		}
	}
}

func (s *server) didOpen(_ *glsp.Context, p *protocol.DidOpenTextDocumentParams) error {
	path, ok := uriPath(p.TextDocument.URI)
	if !ok {
		return nil // not a file: nothing aepflow can place in a tree
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, open := s.ws.docs[path]; !open && len(s.ws.docs) >= s.opts.MaxDocuments {
		s.logf("refused to open %s: %d documents are open already", path, len(s.ws.docs))
		go s.notify(protocol.ServerWindowShowMessage, protocol.ShowMessageParams{Type: protocol.MessageTypeWarning,
			Message: fmt.Sprintf("aepflow: %d documents are open, the most the server tracks; %s is validated from disk", s.opts.MaxDocuments, diag.EscapeText(filepath.Base(path)))})
		return nil
	}
	d := &document{uri: p.TextDocument.URI, path: path, version: p.TextDocument.Version, root: s.ws.rootOf(path)}
	s.setText(d, p.TextDocument.Text)
	s.ws.docs[path] = d
	s.ws.change(d.root, path)
	s.schedule()
	return nil
}

// setText stores a buffer's new text, letting it go past MaxBuffer.
func (s *server) setText(d *document, text string) {
	if len(text) > s.opts.MaxBuffer {
		s.drop(d, fmt.Sprintf("a buffer of %d bytes is over the limit of %d", len(text), s.opts.MaxBuffer))
		return
	}
	d.text, d.dropped = text, false
}

// drop lets a buffer go: the file on disk stands for it until the client
// sends the whole text again.
func (s *server) drop(d *document, why string) {
	d.text, d.dropped = "", true
	s.logf("%s: %s; the file on disk stands for it", d.path, why)
}

func (s *server) didChange(_ *glsp.Context, p *protocol.DidChangeTextDocumentParams) error {
	path, ok := uriPath(p.TextDocument.URI)
	if !ok {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.ws.docs[path]
	if d == nil {
		return nil
	}
	// The changes apply to a copy, so that a change refused half-way
	// leaves the buffer as it was; ed is nil once the text is gone
	// (dropped before, or by a change here), until a whole text comes.
	var ed *editor
	if !d.dropped {
		ed = newEditor(d.text)
	}
	why, work := "", 0
	for i, c := range p.ContentChanges {
		switch c := c.(type) {
		case protocol.TextDocumentContentChangeEventWhole:
			if ed != nil {
				work += ed.work
			}
			ed = nil
			if len(c.Text) <= s.opts.MaxBuffer {
				ed = newEditor(c.Text)
			} else {
				why = fmt.Sprintf("a buffer of %d bytes is over the limit of %d", len(c.Text), s.opts.MaxBuffer)
			}
		case protocol.TextDocumentContentChangeEvent:
			if ed == nil {
				continue // the text is gone: wait for a whole one
			}
			if work+ed.work > s.opts.MaxChangeWork {
				why = fmt.Sprintf("the %d changes of one didChange go through more than %d bytes of text (at change %d)", len(p.ContentChanges), s.opts.MaxChangeWork, i+1)
				ed = nil
				continue
			}
			start, end := ed.offset(c.Range.Start), ed.offset(c.Range.End)
			if end < start {
				// Refused, the change would leave this buffer one edit
				// behind the client's, and every later change would land
				// on text the client no longer has: the buffer is let go.
				why = fmt.Sprintf("change %d of a didChange has a range that ends before it starts", i+1)
				ed = nil
				continue
			}
			if size := len(ed.b) - (end - start) + len(c.Text); size > s.opts.MaxBuffer {
				why = fmt.Sprintf("a buffer of %d bytes is over the limit of %d", size, s.opts.MaxBuffer)
				ed = nil
				continue
			}
			ed.replace(start, end, c.Text)
		}
	}
	if ed != nil {
		s.setText(d, string(ed.b))
	} else if why != "" {
		s.drop(d, why)
	}
	d.version = p.TextDocument.Version
	s.ws.change(d.root, path)
	s.schedule()
	return nil
}

func (s *server) didSave(_ *glsp.Context, p *protocol.DidSaveTextDocumentParams) error {
	path, ok := uriPath(p.TextDocument.URI)
	if !ok {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if d := s.ws.docs[path]; d != nil {
		if p.Text != nil {
			s.setText(d, *p.Text)
		}
		s.ws.change(d.root, path)
		s.schedule()
	}
	return nil
}

func (s *server) didClose(_ *glsp.Context, p *protocol.DidCloseTextDocumentParams) error {
	path, ok := uriPath(p.TextDocument.URI)
	if !ok {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.ws.docs[path]
	if d == nil {
		return nil
	}
	delete(s.ws.docs, path)
	s.ws.change(d.root, path) // the disk wins again
	s.schedule()
	return nil
}

func (s *server) didChangeWatchedFiles(_ *glsp.Context, p *protocol.DidChangeWatchedFilesParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range p.Changes {
		path, ok := uriPath(c.URI)
		if !ok || s.ws.docs[path] != nil {
			continue // an open buffer wins over the disk
		}
		for root, ts := range s.ws.trees {
			if _, ok := ts.tree.RowOf(path); ok {
				s.ws.change(root, path)
			}
		}
		for root := range s.ws.loading {
			if inRow(root, path) {
				s.ws.change(root, path) // read again once the load lands
			}
		}
	}
	s.schedule()
	return nil
}

func mapValues[V any](m map[string]V) []V {
	out := make([]V, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, m[k])
	}
	return out
}
