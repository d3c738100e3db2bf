package project

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/aepflow/aepflow/internal/fsio"
	"github.com/aepflow/aepflow/yamldoc"
)

// Formats of the generation layout (engine.md §7.3).
const (
	StateFormat      = "aep.driver-state-current/1"
	GenerationFormat = "aep.driver-state-generation/1"
)

// Run layouts.
const (
	LayoutGeneration = "generation"
	LayoutLegacy     = "legacy"
)

// Run is a run directory read in memory. The cursor's bytes are checked
// (generation layout) but never interpreted.
type Run struct {
	// ID is the run's id.
	ID RunID
	// Dir is the run directory.
	Dir string
	// Layout is LayoutGeneration or LayoutLegacy.
	Layout string
	// Generation is the committed generation (0 for a legacy run).
	Generation uint64
	// SnapshotFile names the file Snapshot was read from.
	SnapshotFile string
	// Snapshot and Cursor are the committed files' bytes.
	Snapshot, Cursor []byte
	// Launch is the run's launch.json, or nil when it has none.
	Launch *Launch
	// Files are the files read, in order (for a writer that must land on
	// none of them).
	Files []string

	// real is Dir with every symbolic link resolved: each file read must
	// resolve inside it.
	real string
}

// Launch is the part of a run's launch.json that is read: locations that
// fill flags the caller omitted. Map is only a hint and is never resolved.
type Launch struct {
	// TaskDocument is the task document's path, relative to the project
	// directory unless absolute.
	TaskDocument string `json:"task_document"`
	// Root is the document tree's path, relative like TaskDocument.
	Root string `json:"root"`
	// PluginDirs are the run's plugin directories.
	PluginDirs []string `json:"plugin_dirs"`
	// Map is the driver's step map hint, kept as written (any JSON value):
	// it is never resolved, so it is not decoded either.
	Map json.RawMessage `json:"map"`
}

// RunError is a run directory that cannot be read: NoRun when it is not a
// directory at all.
type RunError struct {
	// NoRun is set when the run directory does not exist or is not a
	// directory.
	NoRun bool
	// Message says what is wrong, naming the run.
	Message string
}

// Error returns the message.
func (e *RunError) Error() string { return e.Message }

// ReadRun reads the run directory dir strictly read-only (engine.md §7.3):
// with a state.json, the generation it points at, every digest checked;
// without one, the legacy snapshot.json and cursor.json, both required.
// Top-level copies, locks, `.N.writing` directories, logs and transcripts
// are never read. Nothing is created, renamed, locked or written.
//
// Every file is read through fsio (a named pipe or a device is refused
// without blocking, a file over MaxRunFile from its size) and must resolve,
// symbolic links followed, inside the run directory: a link out of it is
// refused, naming the link, so the answer never comes from data outside
// the run.
func ReadRun(dir string, id RunID) (*Run, error) { return readRun(dir, id, "") }

// readRun is ReadRun with dir's resolved form real when the caller has it
// ("" to resolve dir here).
func readRun(dir string, id RunID, real string) (*Run, error) {
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return nil, &RunError{NoRun: true, Message: fmt.Sprintf("no run %s (no directory %s)", id, dir)}
	}
	if real == "" {
		if real, err = resolve(dir); err != nil {
			return nil, &RunError{Message: fmt.Sprintf("run %s: cannot resolve %s: %v", id, dir, err)}
		}
	}
	run := &Run{ID: id, Dir: dir, real: real}
	if err := run.readLaunch(); err != nil {
		return nil, err
	}
	state := filepath.Join(dir, "state.json")
	if _, err = os.Lstat(state); err == nil {
		err = run.readGeneration(state)
	} else if errors.Is(err, os.ErrNotExist) {
		err = run.readLegacy()
	} else {
		err = run.fail("cannot read %s: %v", state, err)
	}
	if err != nil {
		return nil, err
	}
	return run, nil
}

func (r *Run) fail(format string, args ...any) error {
	return &RunError{Message: fmt.Sprintf("run %s: ", r.ID) + fmt.Sprintf(format, args...)}
}

// readGeneration follows state.json to the committed generation.
func (r *Run) readGeneration(state string) error {
	r.Layout = LayoutGeneration
	var ptr struct {
		Format         *string `json:"format"`
		Generation     *uint64 `json:"generation"`
		ManifestSHA256 *string `json:"manifest_sha256"`
	}
	if err := r.readJSON(state, map[string]any{"format": &ptr.Format, "generation": &ptr.Generation, "manifest_sha256": &ptr.ManifestSHA256}); err != nil {
		return r.fail("%v", err)
	}
	if ptr.Format == nil || ptr.Generation == nil || ptr.ManifestSHA256 == nil {
		return r.fail("%s: `format`, `generation` and `manifest_sha256` are all required", state)
	}
	if *ptr.Format != StateFormat {
		return r.fail("%s: format %q is not %q", state, *ptr.Format, StateFormat)
	}
	r.Generation = *ptr.Generation
	gen := filepath.Join(r.Dir, "generations", strconv.FormatUint(r.Generation, 10))
	manifest := filepath.Join(gen, "manifest.json")
	m, err := r.readChecked(manifest, MaxRunRecord, *ptr.ManifestSHA256, "state.json `manifest_sha256`")
	if err != nil {
		return err
	}
	var man struct {
		Format         *string `json:"format"`
		Generation     *uint64 `json:"generation"`
		SnapshotSHA256 *string `json:"snapshot_sha256"`
		CursorSHA256   *string `json:"cursor_sha256"`
	}
	if err := decodeObject(m, map[string]any{"format": &man.Format, "generation": &man.Generation, "snapshot_sha256": &man.SnapshotSHA256, "cursor_sha256": &man.CursorSHA256}); err != nil {
		return r.fail("%s: not a generation manifest: %v", manifest, err)
	}
	if man.Format == nil || man.Generation == nil || man.SnapshotSHA256 == nil || man.CursorSHA256 == nil {
		return r.fail("%s: `format`, `generation`, `snapshot_sha256` and `cursor_sha256` are all required", manifest)
	}
	if *man.Format != GenerationFormat {
		return r.fail("%s: format %q is not %q", manifest, *man.Format, GenerationFormat)
	}
	if *man.Generation != r.Generation {
		return r.fail("%s: generation %d does not match state.json's %d", manifest, *man.Generation, r.Generation)
	}
	r.SnapshotFile = filepath.Join(gen, "snapshot.json")
	if r.Snapshot, err = r.readChecked(r.SnapshotFile, MaxRunFile, *man.SnapshotSHA256, "manifest `snapshot_sha256`"); err != nil {
		return err
	}
	r.Cursor, err = r.readChecked(filepath.Join(gen, "cursor.json"), MaxRunFile, *man.CursorSHA256, "manifest `cursor_sha256`")
	return err
}

// readChecked reads file, of at most limit bytes, and checks its sha256
// against want.
func (r *Run) readChecked(file string, limit int64, want, what string) ([]byte, error) {
	data, err := r.readRegular(file, limit)
	if err != nil {
		return nil, r.fail("generation %d: %v", r.Generation, err)
	}
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:]); got != want {
		return nil, r.fail("generation %d: sha256 check failed for %s: %s is %q, the file hashes to %s", r.Generation, file, what, want, got)
	}
	return data, nil
}

// readLegacy reads a run without state.json in memory; it is never
// migrated.
func (r *Run) readLegacy() error {
	r.Layout = LayoutLegacy
	r.SnapshotFile = filepath.Join(r.Dir, "snapshot.json")
	snap, serr := r.readRegular(r.SnapshotFile, MaxRunFile)
	cur, cerr := r.readRegular(filepath.Join(r.Dir, "cursor.json"), MaxRunFile)
	switch {
	case serr == nil && cerr == nil:
		r.Snapshot, r.Cursor = snap, cur
		return nil
	case serr != nil && cerr != nil && errors.Is(serr, os.ErrNotExist) && errors.Is(cerr, os.ErrNotExist):
		return r.fail("no committed generation: neither state.json nor snapshot.json and cursor.json in %s", r.Dir)
	case errors.Is(cerr, os.ErrNotExist) && serr == nil:
		return r.fail("incomplete state: legacy layout has snapshot.json but no cursor.json in %s", r.Dir)
	case errors.Is(serr, os.ErrNotExist) && cerr == nil:
		return r.fail("incomplete state: legacy layout has cursor.json but no snapshot.json in %s", r.Dir)
	case serr != nil:
		return r.fail("%v", serr)
	default:
		return r.fail("%v", cerr)
	}
}

// readLaunch reads the optional launch.json.
func (r *Run) readLaunch() error {
	file := filepath.Join(r.Dir, "launch.json")
	if _, err := os.Lstat(file); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	var l Launch
	if err := r.readJSON(file, map[string]any{"task_document": &l.TaskDocument, "root": &l.Root, "plugin_dirs": &l.PluginDirs, "map": &l.Map}); err != nil {
		return r.fail("%v", err)
	}
	r.Launch = &l
	return nil
}

// MaxRunFile bounds a run's snapshot and cursor, in bytes.
const MaxRunFile = 64 << 20

// MaxRunRecord bounds the run's small JSON records a driver writes
// (state.json, a generation's manifest, launch.json), in bytes: the
// document bound. They hold a few hundred bytes; decoded from up to
// MaxRunFile, launch.json's `plugin_dirs` alone could cost the hook a
// gigabyte of memory.
const MaxRunRecord = yamldoc.MaxFileSize

// readRegular reads a regular file of the run (following symlinks) through
// fsio.ReadFile: a directory, a named pipe or a device is refused without
// blocking, a file over limit from its size, before it is read; a file
// that resolves outside the run directory is refused, naming the link.
func (r *Run) readRegular(file string, limit int64) ([]byte, error) {
	if _, err := contained(file, r.Dir, r.real, "the run directory "+r.Dir); err != nil {
		return nil, err
	}
	r.Files = append(r.Files, file)
	return fsio.ReadFile(file, limit)
}

// readJSON decodes a small JSON object file of the run, of at most
// MaxRunRecord bytes, into fields (decodeObject: keys exact, none twice).
func (r *Run) readJSON(file string, fields map[string]any) error {
	data, err := r.readRegular(file, MaxRunRecord)
	if err != nil {
		return err
	}
	if err := decodeObject(data, fields); err != nil {
		return fmt.Errorf("%s: %v", file, err)
	}
	return nil
}

// contained checks that path, a path below the directory base, lies
// inside base's resolved form real once every symbolic link is followed,
// and returns it so resolved ("" when it does not exist); what names base
// in messages. A path that does not exist passes (reading it then fails as
// missing). A path that leaves real is refused, naming the first symbolic
// link below base on the way and where it points.
func contained(path, base, real, what string) (string, error) {
	if joined, free, exists := linkFree(path, base, real); free {
		if !exists {
			return "", nil
		}
		return joined, nil
	}
	resolved, err := resolve(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("cannot resolve %s: %v", path, err)
	}
	if within(resolved, real) {
		return resolved, nil
	}
	link, target := firstLink(base, path)
	return "", fmt.Errorf("`%s` is a symbolic link to `%s`, outside %s; a run is read only from inside it", link, target, what)
}

// linkFree reports whether path lies lexically below base and no name on
// the way from real (base resolved) down to it is a symbolic link, and
// then path resolved (real joined with the rest of path) and whether it
// exists: contained needs no resolution of base's own ancestors again,
// which a hook reading a dozen run files would otherwise do for every one
// (a system call per ancestor). A name that does not exist ends the walk.
func linkFree(path, base, real string) (joined string, free, exists bool) {
	if !within(path, base) {
		return "", false, false
	}
	rel, _ := filepath.Rel(base, path)
	joined = filepath.Join(real, rel)
	cur := real
	for _, elem := range strings.Split(rel, string(filepath.Separator)) {
		if elem == "." {
			continue
		}
		cur = filepath.Join(cur, elem)
		info, err := os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			return joined, true, false
		}
		if err != nil || info.Mode()&os.ModeSymlink != 0 {
			return "", false, false
		}
	}
	return joined, true, true
}

// resolve returns path with every symbolic link followed, made absolute.
func resolve(path string) (string, error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", err
	}
	return filepath.Abs(real)
}

// within reports whether path is dir or lies below it, lexically; both are
// clean paths, absolute or both relative.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// firstLink returns the first symbolic link on path below base (path
// itself when base is not a prefix, or when none is found because it
// changed meanwhile) and the link's own text.
func firstLink(base, path string) (string, string) {
	rel, err := filepath.Rel(base, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		rel = ""
	}
	cur := base
	for _, elem := range strings.Split(rel, string(filepath.Separator)) {
		if elem == "" || elem == "." {
			continue
		}
		cur = filepath.Join(cur, elem)
		if info, err := os.Lstat(cur); err == nil && info.Mode()&os.ModeSymlink != 0 {
			target, _ := os.Readlink(cur)
			return cur, target
		}
	}
	if info, err := os.Lstat(path); err == nil && info.Mode()&os.ModeSymlink != 0 {
		target, _ := os.Readlink(path)
		return path, target
	}
	return path, ""
}
