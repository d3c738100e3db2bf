package tree

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/internal/fsio"
	"github.com/aepflow/aepflow/internal/inorder"
	"github.com/aepflow/aepflow/internal/suggest"
	"github.com/aepflow/aepflow/protocol"
	"github.com/aepflow/aepflow/stepmap"
	"github.com/aepflow/aepflow/workflow"
	"github.com/aepflow/aepflow/yamldoc"
	yaml "go.yaml.in/yaml/v3"
)

// maxExtendsHops bounds a protocol's extends chain (documents.md §9).
const maxExtendsHops = 8

// Load reads the tree under root: each row of Rows in order, each directory
// walked recursively (entries starting with `.` skipped whole, only .yaml,
// .yml and .json files read, in byte order of their paths; a missing
// directory is not an error). Every document is decoded strictly and
// validated; then every step map is checked against the workflow it pins.
// All problems are returned at once; the tree holds every document that
// decoded without a shape error.
func Load(root string) (*Tree, diag.List) {
	return LoadKinds(root, Kinds...)
}

// LoadKinds reads only the rows of the tree under root that hold one of
// kinds, in the load order of Rows whatever the order of kinds; the other
// directories are never walked. It is Load for a reader that needs part of
// the tree: the engine reads protocols, principles, workflows and profiles
// and must not touch drivers/ (engine.md §1.1). The registry-wide checks
// run over what was read (a step map is cross-checked only when step maps
// were loaded). No kinds loads nothing.
func LoadKinds(root string, kinds ...Kind) (*Tree, diag.List) {
	return LoadKindsWith(root, Options{}, kinds...)
}

// Options tune what a load keeps of the files it reads.
type Options struct {
	// NoSources keeps no file's bytes once the file is decoded: Sources
	// stays empty, so diagnostics print without source lines, and carry no
	// spans or fixes (which need the bytes). It is for a reader whose
	// answers are one line (the transition hook): the bytes of a tree are
	// most of what a load keeps, and a process that keeps them pays for
	// them in its peak memory. Every document is read, bounded, parsed,
	// decoded and validated as without it.
	NoSources bool
}

// LoadKindsWith is LoadKinds with opts; a directory AddDir reads into the
// tree later is kept as opts says too.
func LoadKindsWith(root string, opts Options, kinds ...Kind) (*Tree, diag.List) {
	t := newTree(root)
	t.opts = opts
	t.kinds = slices.Clone(kinds)
	var diags diag.List
	for _, row := range Rows {
		if slices.Contains(kinds, row.Kind) {
			diags.Extend(t.AddDir(filepath.Join(root, filepath.FromSlash(row.Dir)), row.Kind))
		}
	}
	diags.Extend(t.crossCheck())
	return t, diags
}

// AddDir reads the documents of kind under dir into the tree, walking it as
// Load walks a row, and refuses an identity the tree already holds
// (duplicate_<kind>). It is for directories of one kind kept outside the
// tree, such as a project's own principles/ and profiles/ (engine.md §7.1);
// it runs no registry-wide check. A missing dir adds nothing.
func (t *Tree) AddDir(dir string, kind Kind) diag.List {
	var diags diag.List
	files, err := collect(dir)
	t.unwalked = t.unwalked || err != nil
	for _, err := range joined(err) {
		d := diag.Errorf(CodeIOError, "cannot read `%s`: %v", dir, err).InFile(dir)
		if ld := (*LinkedDirError)(nil); errors.As(err, &ld) {
			d = diag.Errorf(CodeIOError, "cannot read the directory: it is a symbolic link, which is not followed, so the documents under it are not read").InFile(ld.Path).
				WithHint("put the documents in the tree itself (a copy, or the directory in place of the link)")
		}
		if tm := (*TooManyEntriesError)(nil); errors.As(err, &tm) {
			d = diag.Errorf(CodeInputTooLarge, "the directory holds more than %d entries (files and directories) in all, so none of its documents is read", dirEntryLimit).InFile(tm.Dir).
				WithHint("keep only the documents in the tree's directories; move other files elsewhere")
		}
		diags.Extend(t.admit(&entry{file: File{Kind: kind}, diags: diag.List{d}}))
	}
	t.readFiles(files, kind, &diags)
	return diags
}

// minParallelFiles is the fewest files readFiles spreads over goroutines.
// Fewer are read in turn: on a small tree (the transition hook's usual one,
// a few files a directory) waking a second thread costs a short-lived
// process more time and memory than it saves.
const minParallelFiles = 8

// readFiles reads, parses, decodes and validates files and admits them
// into the tree in their order, so that the tree and its diagnostics are
// those of a sequential load. With at least minParallelFiles files, the
// work runs on as many goroutines as the process may run in parallel,
// started once for the whole directory (inorder.Run): each takes the next
// file as soon as it is free, at most a window of files ahead of the one
// admitted next (goroutines started per window, as before, paid for their
// start and for growing their stacks again, and each window's slowest file
// held the others up). Files are admitted against the byte budget as they
// come in; once it is spent no more are handed out, and the ones in flight
// and the rest are dropped, as a sequential load drops every file after
// the one that spent it: at most a window of files beyond MaxTreeBytes is
// ever read.
func (t *Tree) readFiles(files []string, kind Kind, diags *diag.List) {
	workers := min(runtime.GOMAXPROCS(0), len(files))
	if workers <= 1 || len(files) < minParallelFiles || t.full {
		for _, f := range files {
			diags.Extend(t.admit(t.readEntry(f, kind)))
		}
		return
	}
	started := inorder.Run(len(files), workers, 4*workers,
		func(i int) *entry { return parseFile(files[i], kind, t.opts) },
		func(_ int, e *entry) bool {
			diags.Extend(t.admit(t.withinBudget(e)))
			return !t.full
		})
	for _, f := range files[started:] {
		diags.Extend(t.admit(t.readEntry(f, kind)))
	}
}

// parseFile reads, parses, decodes and validates one file; the byte budget
// is the caller's to apply, in order.
func parseFile(file string, kind Kind, opts Options) *entry {
	data, diags := ReadFile(file)
	if data == nil {
		return &entry{file: File{Path: file, Kind: kind}, diags: diags}
	}
	return parseEntry(file, kind, data, opts)
}

// withinBudget returns e, or its refusal when its bytes would take the
// tree past MaxTreeBytes (readEntry's rule, applied after the read). Once
// the budget is spent, e is dropped without a word, as readEntry drops a
// file it does not read.
func (t *Tree) withinBudget(e *entry) *entry {
	if t.full {
		return &entry{file: e.file}
	}
	if e.data == nil {
		return e
	}
	if t.bytes+int64(len(e.data)) > MaxTreeBytes {
		return &entry{file: e.file, diags: t.overBudget(e.file.Path)}
	}
	t.bytes += int64(len(e.data))
	return e
}

// readEntry reads, parses, decodes and validates one file of kind from
// disk. A file over the size bound, or one that would take the tree past
// MaxTreeBytes, is refused before it is read; once the budget is spent, no
// file is read at all, as overBudget's refusal says.
func (t *Tree) readEntry(file string, kind Kind) *entry {
	refused := func(diags diag.List) *entry { return &entry{file: File{Path: file, Kind: kind}, diags: diags} }
	if t.full {
		return refused(nil)
	}
	if info, err := os.Stat(file); err == nil && info.Mode().IsRegular() && info.Size() <= yamldoc.MaxFileSize && t.bytes+info.Size() > MaxTreeBytes {
		return refused(t.overBudget(file))
	}
	data, diags := ReadFile(file)
	if data == nil {
		return refused(diags)
	}
	if t.bytes += int64(len(data)); t.bytes > MaxTreeBytes {
		return refused(t.overBudget(file))
	}
	return parseEntry(file, kind, data, t.opts)
}

// parseEntry parses, decodes and validates data as the file of kind. Under
// opts.NoSources the decoders are not given the bytes: they serve only the
// spans and fixes of diagnostics printed with their source lines, which
// such a load never prints (a workflow locates every transition's states
// for them, on every load).
func parseEntry(file string, kind Kind, data []byte, opts Options) *entry {
	e := &entry{file: File{Path: file, Kind: kind}, data: data}
	doc, ds := yamldoc.Parse(file, data)
	e.diags.Extend(ds)
	if doc == nil || ds.HasErrors() {
		e.brokenID = peekID(nil, data)
		return e
	}
	if opts.NoSources {
		doc.Data = nil
	}
	d, sound, ds := decode(kind, doc)
	e.diags.Extend(ds)
	e.doc, e.sound = d, sound
	if d == nil || !sound {
		e.brokenID = peekID(doc.Root, data)
	}
	return e
}

// admit appends e to the tree in load order: its file, its bytes and its
// own diagnostics, then its document registered under its identity. A
// document with shape errors never enters the registry: it is marked broken
// (a reference to it is not reported again) and kept among the unsound
// documents, whose parts that decoded the registry-wide checks still judge.
// It returns the diagnostics in the order Load reports them.
func (t *Tree) admit(e *entry) diag.List {
	if t.opts.NoSources && e.data != nil {
		// e is new (entries are shared only by trees WithFile builds
		// from this one), and its bytes are counted already.
		e.data = nil
	}
	t.entries = append(t.entries, e)
	diags := slices.Clone(e.diags)
	if e.file.Path == "" {
		return diags
	}
	t.Files = append(t.Files, e.file)
	if e.data != nil {
		t.Sources[e.file.Path] = e.data
	}
	switch {
	case e.doc != nil && e.sound:
		diags.Extend(t.register(e.doc))
	default:
		t.markBroken(e.file.Kind, e.brokenID, e.file.Path)
		if e.doc != nil {
			t.unsound = append(t.unsound, e.doc)
		}
	}
	return diags
}

// topLevelID finds a top-level `id:` line of a YAML document, or an `"id":`
// member of a JSON one, in a file too broken to parse.
var topLevelID = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^(?:id:[ \t]*["']?([^"'\s#,{}\[\]]+)|[{ \t]*"id"[ \t]*:[ \t]*"([^"\\]+)")`)
})

// peekID returns the `id` a document declares, from its parsed root when
// there is one, else from its bytes; "" when neither tells.
func peekID(root *yaml.Node, data []byte) string {
	if root != nil {
		if root.Kind != yaml.MappingNode {
			return ""
		}
		for i := 0; i+1 < len(root.Content); i += 2 {
			if k, v := root.Content[i], root.Content[i+1]; k.Value == "id" && v.Kind == yaml.ScalarNode {
				return v.Value
			}
		}
		return ""
	}
	if m := topLevelID().FindSubmatch(data); m != nil {
		return string(m[1]) + string(m[2])
	}
	return ""
}

// joined returns the errors err joins (errors.Join), err alone when it
// joins none, and nothing for nil.
func joined(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// collect returns the document files under dir in byte order of their
// paths. A missing dir yields nothing.
func collect(dir string) ([]string, error) { return Files(dir, isDocument) }

// Files returns the paths of the files under dir whose name keep accepts,
// in byte order, the way a tree's directories are read: an entry whose name
// starts with `.` is skipped (a directory whole), and a missing dir holds
// none. It reads names only, never a file. A symbolic link to a directory
// is not walked: each is a *LinkedDirError in the returned error (joined),
// and the walk goes on. A walk that meets more than MaxDirEntries entries
// stops there and returns no file, only a *TooManyEntriesError: a
// directory's entries are read a batch at a time, so even one directory
// of millions is refused without holding its names.
func Files(dir string, keep func(name string) bool) ([]string, error) {
	w := walk{keep: keep, limit: dirEntryLimit}
	if err := w.root(dir); err != nil {
		return nil, err
	}
	slices.Sort(w.files)
	return w.files, errors.Join(w.linked...)
}

// MaxDirEntries bounds the entries (files and directories, documents or
// not) one walk of a tree's directory meets: 100,000, where a real
// tree's directory holds hundreds. Without it a directory of millions of
// files (an agent can write into the tree it is governed by) would cost
// the hook, and every command, time and memory in proportion.
const MaxDirEntries = 100_000

// dirEntryLimit is MaxDirEntries, lowered by tests.
var dirEntryLimit = MaxDirEntries

// TooManyEntriesError is a walk stopped by MaxDirEntries.
type TooManyEntriesError struct {
	// Dir is the directory whose walk was stopped.
	Dir string
}

// Error says which bound was reached.
func (e *TooManyEntriesError) Error() string {
	return fmt.Sprintf("`%s` holds more than %d entries (files and directories) in all; none of its documents is read", e.Dir, dirEntryLimit)
}

// walk is the state of one Files.
type walk struct {
	keep   func(name string) bool
	limit  int // entries the walk may meet
	top    string
	seen   int // entries met so far
	files  []string
	linked []error
}

// root walks dir, the top of the walk: a missing one holds nothing (so
// does one under a file, which cannot exist), and one that is a file or a
// link is taken as an entry of the walk, as filepath.WalkDir takes its
// root.
func (w *walk) root(dir string) error {
	w.top = dir
	info, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		return nil
	case err != nil:
		return err
	case info.IsDir():
		return w.dir(dir)
	}
	w.entry(dir, fs.FileInfoToDirEntry(info), nil)
	return nil
}

// dir reads the entries of one directory, a batch at a time, within what
// is left of the walk's MaxDirEntries, and walks its subdirectories after
// it is closed, so that one file is open at a time however deep the tree.
func (w *walk) dir(dir string) error {
	entries, err := fsio.ReadDir(dir, w.limit-w.seen)
	if fsio.IsTooManyEntries(err) {
		w.seen = w.limit
		return &TooManyEntriesError{Dir: w.top}
	}
	if err != nil {
		return err
	}
	w.seen += len(entries)
	var subdirs []string
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".") {
			w.entry(filepath.Join(dir, e.Name()), e, &subdirs)
		}
	}
	for _, sub := range subdirs {
		if err := w.dir(sub); err != nil {
			return err
		}
	}
	return nil
}

// entry files one entry: a directory to walk (into subdirs), a link to a
// directory as a LinkedDirError, a file keep accepts as a path.
func (w *walk) entry(path string, e fs.DirEntry, subdirs *[]string) {
	if e.IsDir() {
		*subdirs = append(*subdirs, path)
		return
	}
	if e.Type()&fs.ModeSymlink != 0 {
		if info, err := os.Stat(path); err == nil && info.IsDir() {
			w.linked = append(w.linked, &LinkedDirError{Path: path})
			return
		}
	}
	if w.keep(e.Name()) {
		w.files = append(w.files, path)
	}
}

// LinkedDirError is an entry of a walked directory that is a symbolic
// link to a directory. Files does not walk through it (a walk through
// links can loop, or leave the tree), and does not pass over it in
// silence either: the documents behind it — a principle, a profile —
// would be missing from the tree without a word, and the engine would
// answer without them.
type LinkedDirError struct {
	// Path is the link, as the walk reached it.
	Path string
}

// Error says what the link is and what follows for the files under it.
func (e *LinkedDirError) Error() string {
	return fmt.Sprintf("`%s` is a symbolic link to a directory, which is not followed: nothing under it is read", e.Path)
}

func isDocument(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// MaxTreeBytes bounds the bytes of all the documents of one tree (64 MiB;
// real trees hold kilobytes): every source is kept for the diagnostics
// printer, so without it a tree of many large files could exhaust memory.
// The files past the bound are refused, the first with input_too_large.
const MaxTreeBytes = 64 << 20

// overBudget refuses file because the tree's documents exceed
// MaxTreeBytes: input_too_large for the first such file, nothing more for
// the others (one cause, one diagnostic).
func (t *Tree) overBudget(file string) diag.List {
	if t.full {
		return nil
	}
	t.full = true
	return diag.List{OverBudget(file, MaxTreeBytes)}
}

// OverBudget returns the input_too_large diagnostic of file, the first
// document of a tree that takes its documents past limit bytes in all
// (MaxTreeBytes for a tree on disk), for the readers of trees that do not
// come from disk (a git revision's).
func OverBudget(file string, limit int64) diag.Diagnostic {
	return diag.Errorf(CodeInputTooLarge, "the tree's documents exceed the limit of %s in all; this file and the ones after it are not read", fsio.FormatSize(limit)).
		InFile(file).WithHint("AEP trees hold kilobytes; check that --root is the tree you meant")
}

// ReadFile reads a document file, refusing one larger than
// yamldoc.MaxFileSize from its size alone, without reading it. It returns
// nil data with the diagnostic when the file cannot be used.
func ReadFile(file string) ([]byte, diag.List) {
	// fsio refuses a named pipe, a device or a directory without blocking
	// on it, and a file over the bound from the size it reports, before a
	// byte is read (or as soon as it grows past it). Only a refusal pays
	// for a second look at the size, to name it.
	data, err := fsio.ReadFile(file, yamldoc.MaxFileSize)
	if err != nil {
		return nil, diag.List{ReadError(file, err)}
	}
	return data, nil
}

// ReadError is the diagnostic ReadFile gives for a document fsio refused
// or the system could not read, for a caller that read the bytes itself
// (aepflow validate reads `-` from standard input): input_too_large over
// the size bound, io_error otherwise, naming why (not a regular file,
// missing, permission, …).
func ReadError(file string, err error) diag.Diagnostic {
	var fe *fsio.Error
	switch {
	case fsio.IsTooLarge(err):
		if info, serr := os.Stat(file); serr == nil && info.Size() > yamldoc.MaxFileSize {
			return diag.Errorf(CodeInputTooLarge, "the file is %d bytes, over the limit of %d bytes", info.Size(), yamldoc.MaxFileSize).
				InFile(file).WithHint("AEP documents are small; check that this is the file you meant")
		}
		return diag.Errorf(CodeInputTooLarge, "the file is over the limit of %d bytes", yamldoc.MaxFileSize).
			InFile(file).WithHint("AEP documents are small; check that this is the file you meant")
	case errors.As(err, &fe):
		return diag.Errorf(CodeIOError, "cannot read the file: %s", fe.Reason()).InFile(file)
	}
	return diag.Errorf(CodeIOError, "cannot read the file: %v", err).InFile(file)
}

// Document is one decoded document; exactly one of the pointers is set,
// the one matching Kind.
type Document struct {
	Kind      Kind
	File      string
	Workflow  *workflow.Workflow
	StepMap   *stepmap.Map
	Protocol  *protocol.Protocol
	Principle *protocol.Principle
	Profile   *protocol.Profile
	Lifecycle *protocol.Lifecycle

	pos diag.Pos
}

// decode reads doc as a document of kind and runs the document's own rules.
// A document recognised as one that never belongs in a tree is refused with
// misplaced_document (nil). Shape errors do not hide the rules: each
// model's Validate judges what decoded soundly. sound reports that the
// document decoded without a shape error; one that did not must never
// enter the registry.
func decode(kind Kind, doc *yamldoc.Document) (d *Document, sound bool, diags diag.List) {
	if m := protocol.Misplaced(doc.Root); m != "" {
		diags.Add(diag.Errorf(CodeMisplaced, "this file is a document of kind `%s`, which does not belong in a document tree", m).
			At(doc.File, yamldoc.PosOf(doc.Root)).
			WithHint("tasks, artifact manifests, evidence and project files live in a project's `.engineering/`, not under `%s`", rowDir(kind)))
		return nil, false, diags
	}
	d = &Document{Kind: kind, File: doc.File, pos: yamldoc.PosOf(doc.Root)}
	switch kind {
	case KindWorkflow:
		d.Workflow = workflow.DecodeReleasing(doc, &diags) // the loader drops doc
	case KindStepMap:
		d.StepMap = stepmap.Decode(doc, &diags)
	case KindProtocol:
		d.Protocol = protocol.DecodeProtocol(doc, &diags)
	case KindPrinciple:
		d.Principle = protocol.DecodePrinciple(doc, &diags)
	case KindProfile:
		d.Profile = protocol.DecodeProfile(doc, &diags)
	case KindLifecycle:
		d.Lifecycle = protocol.DecodeLifecycle(doc, &diags)
	}
	sound = !diags.HasErrors()
	switch kind {
	case KindWorkflow:
		if d.Workflow == nil {
			return nil, false, diags // not a mapping: nothing decoded
		}
		diags.Extend(d.Workflow.Validate())
	case KindStepMap:
		diags.Extend(d.StepMap.Validate())
	case KindPrinciple:
		diags.Extend(d.Principle.Validate())
	}
	return d, sound, diags
}

func rowDir(k Kind) string {
	for _, r := range Rows {
		if r.Kind == k {
			return r.Dir + "/"
		}
	}
	return "the tree"
}

// register adds d to the registry under its identity, refusing a second
// document with an identity already taken (duplicate_<kind>).
func (t *Tree) register(d *Document) diag.List {
	id := d.identity()
	if t.origin[d.Kind] == nil {
		t.origin[d.Kind] = map[string]string{}
	}
	if first, dup := t.origin[d.Kind][id]; dup {
		return diag.List{diag.Errorf(DuplicateCode(d.Kind), "%s `%s` is declared twice: first in %s, again in %s", kindName(d.Kind), id, first, d.File).
			At(d.File, d.pos).WithPath(kindName(d.Kind)+" "+id).
			WithHint("a document's identity comes from its contents (`%s`), not from its file name; rename one of the two", identityKey(d.Kind)).
			WithRelated(first, diag.Pos{}, "first declared here")}
	}
	t.origin[d.Kind][id] = d.File
	switch d.Kind {
	case KindWorkflow:
		t.Workflows[id] = d.Workflow
	case KindStepMap:
		t.StepMaps[id] = d.StepMap
	case KindProtocol:
		t.Protocols[d.Protocol.Ref()] = d.Protocol
	case KindPrinciple:
		t.Principles[id] = d.Principle
	case KindProfile:
		t.Profiles[id] = d.Profile
	case KindLifecycle:
		t.Lifecycles[id] = d.Lifecycle
	}
	return nil
}

// identity returns the registry key of the document as text.
func (d *Document) identity() string {
	switch d.Kind {
	case KindWorkflow:
		return d.Workflow.ID
	case KindStepMap:
		return d.StepMap.ID
	case KindProtocol:
		return d.Protocol.Ref().String()
	case KindPrinciple:
		return d.Principle.ID
	case KindProfile:
		return d.Profile.ID
	}
	return d.Lifecycle.Kind
}

func kindName(k Kind) string {
	if k == KindStepMap {
		return "step map"
	}
	return string(k)
}

func identityKey(k Kind) string {
	switch k {
	case KindProtocol:
		return "id` and `version"
	case KindLifecycle:
		return "kind"
	}
	return "id"
}

// crossCheck runs the registry-wide checks (documents.md §2.5): every step
// map against the workflow it pins, and every protocol's evidence kinds
// against the verifiers of its extends chain.
func (t *Tree) crossCheck() diag.List {
	var diags diag.List
	maps, protocols := t.StepMapList(), t.ProtocolRefs()
	var unsoundProtocols []*protocol.Protocol
	for _, d := range t.unsound {
		switch {
		case d.StepMap != nil:
			maps = append(maps, d.StepMap)
		case d.Protocol != nil && !d.Protocol.ExtendsUnreadable():
			unsoundProtocols = append(unsoundProtocols, d.Protocol)
		}
	}
	for _, m := range maps {
		if !m.Workflow.Pinned() {
			continue // refused already (missing_declaration)
		}
		w := t.Workflows[m.Workflow.ID]
		if w == nil {
			if d, ok := t.unknownPin(m); ok {
				diags.Add(d)
			}
			continue
		}
		diags.Extend(m.CrossValidate(w))
	}
	for _, ref := range protocols {
		p := t.Protocols[ref]
		diags.Extend(p.ValidateVerifiers(t.inheritedVerifiers(p)))
	}
	for _, p := range unsoundProtocols {
		diags.Extend(p.ValidateVerifiers(t.inheritedVerifiers(p)))
	}
	return diags
}

// unknownPin reports a step map pinned to a workflow the registry lacks,
// at the pin, with a "did you mean" among the tree's workflows. A pin
// naming a workflow whose file failed to load is not reported: that file's
// own problems are the cause. When workflow files failed to load without a
// readable id, the hint names them.
func (t *Tree) unknownPin(m *stepmap.Map) (diag.Diagnostic, bool) {
	named, unnamed := t.Broken(KindWorkflow, m.Workflow.ID)
	if len(named) > 0 {
		return diag.Diagnostic{}, false
	}
	d := diag.Errorf(CodeUnknownWorkflow, "step map `%s` is pinned to `%s`, but the tree has no workflow `%s`", m.ID, m.WorkflowText, m.Workflow.ID).
		At(m.File, m.PinPos()).WithPath(m.Location() + ".workflow")
	if len(unnamed) > 0 {
		d = d.WithHint("these workflow files failed to load, and may hold it: %s", strings.Join(unnamed, ", "))
	}
	if best, ok := suggest.Closest(m.Workflow.ID, t.WorkflowIDs()); ok {
		d = d.WithSuggestion(best)
		if fix, ok := m.PinFix(best); ok {
			d = d.WithFix(fix)
		}
	}
	return d, true
}

// inheritedVerifiers collects the verifiers of p's extends chain, as far as
// the tree resolves it (at most maxExtendsHops hops; cycles stop it).
func (t *Tree) inheritedVerifiers(p *protocol.Protocol) []string {
	var out []string
	for hops := 0; p.Extends != nil && hops < maxExtendsHops; hops++ {
		base := t.Protocols[*p.Extends]
		if base == nil {
			break
		}
		out = append(out, base.Verifiers...)
		p = base
	}
	return out
}
