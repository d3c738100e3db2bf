package render

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/aepflow/aepflow/ident"
)

// This file is a small, read-only reader of what the overlay needs from an
// engine snapshot (engine.md §6.1) and a run directory (§7.1–§7.3): the task,
// the current state and the states entered. It exists because the engine's
// own reader was not available when render was written; the engine's
// reader should replace it (see docs/render.md).

// maxSnapshot bounds the bytes of a snapshot read for an overlay.
const maxSnapshot = 64 << 20

// maxProjectLevels is how many directories FindProject climbs (engine.md §7.1).
const maxProjectLevels = 12

// snapshotKeys are the keys a snapshot may hold (engine.md §6.1).
var snapshotKeys = []string{"actor", "entered", "events", "evidence", "execution", "next_seq", "state", "task"}

// ReadSnapshot reads an engine snapshot (JSON, engine.md §6.1) for the
// overlay: `task`, `state` and `entered`. Its other keys must be among the
// snapshot's keys but their contents are not interpreted. The overlay's
// status is unknown.
func ReadSnapshot(data []byte) (*Overlay, error) {
	if len(data) > maxSnapshot {
		return nil, fmt.Errorf("snapshot is %d bytes, over the cap of %d", len(data), maxSnapshot)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("snapshot is not a JSON object: %v", err)
	}
	keys := make([]string, 0, len(top))
	for k := range top {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if i := sort.SearchStrings(snapshotKeys, k); i == len(snapshotKeys) || snapshotKeys[i] != k {
			return nil, fmt.Errorf("snapshot has unknown key `%s`; expected %s", k, strings.Join(snapshotKeys, ", "))
		}
	}
	ov := &Overlay{Status: StatusUnknown}
	for _, f := range []struct {
		key string
		dst any
	}{{"task", &ov.Task}, {"state", &ov.Current}, {"entered", &ov.Entered}} {
		raw, ok := top[f.key]
		if !ok {
			return nil, fmt.Errorf("snapshot lacks `%s`", f.key)
		}
		if err := json.Unmarshal(raw, f.dst); err != nil {
			return nil, fmt.Errorf("snapshot `%s` has the wrong type: %v", f.key, err)
		}
	}
	if ov.Current == "" {
		return nil, errors.New("snapshot `state` is empty")
	}
	return ov, nil
}

// ProjectDirName returns the name of the project directory: $AEP_PROJECT_DIR
// when set and not blank, else `.engineering` (engine.md §7.1).
func ProjectDirName() string {
	if v := strings.TrimSpace(os.Getenv("AEP_PROJECT_DIR")); v != "" {
		return v
	}
	return ".engineering"
}

// FindProject returns the project directory (`<dir>/.engineering`) found
// from dir upward, at most 12 levels: the first holding project.yaml, whose
// `version` must be `aep.project/5`.
func FindProject(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	name := ProjectDirName()
	for i := 0; i <= maxProjectLevels; i++ {
		proj := filepath.Join(abs, name)
		data, err := os.ReadFile(filepath.Join(proj, "project.yaml"))
		if err == nil {
			return proj, checkProjectVersion(proj, data)
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			break
		}
		abs = parent
	}
	return "", fmt.Errorf("no project: no `%s/project.yaml` in `%s` or the %d directories above it", name, dir, maxProjectLevels)
}

// checkProjectVersion refuses a project.yaml that is not aep.project/5.
func checkProjectVersion(proj string, data []byte) error {
	var doc struct {
		Version string `yaml:"version"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("`%s`: %v", filepath.Join(proj, "project.yaml"), err)
	}
	if doc.Version != "aep.project/5" {
		return fmt.Errorf("`%s` has version `%s`; this tool reads `aep.project/5`", filepath.Join(proj, "project.yaml"), doc.Version)
	}
	return nil
}

// RunDir returns the directory of run id `<task>/<n>` (engine.md §7.2) in
// the project directory proj.
func RunDir(proj, id string) (string, error) {
	i := strings.LastIndexByte(id, '/')
	if i < 0 {
		return "", fmt.Errorf("run id `%s` is not `<task>/<n>`", id)
	}
	task, num := id[:i], id[i+1:]
	if !ident.Valid(ident.Loose, task) {
		return "", fmt.Errorf("run id `%s`: `%s` is not a task id", id, task)
	}
	n, err := strconv.ParseUint(num, 10, 32)
	if err != nil || n == 0 || strconv.FormatUint(n, 10) != num {
		return "", fmt.Errorf("run id `%s`: `%s` is not a run number (a decimal ≥ 1)", id, num)
	}
	return filepath.Join(proj, "runs", task, num), nil
}

// ReadRun reads the current snapshot of run id in project directory proj,
// read-only and exactly as the hook does (engine.md §7.3: the generation
// layout through state.json and its checksums, or the legacy layout), and
// returns its overlay. The cursor is checked but not interpreted, so the
// status is unknown.
func ReadRun(proj, id string) (*Overlay, error) {
	dir, err := RunDir(proj, id)
	if err != nil {
		return nil, err
	}
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return nil, fmt.Errorf("no run %s (no directory `%s`)", id, dir)
	}
	snap, err := currentSnapshot(dir)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", id, err)
	}
	ov, err := ReadSnapshot(snap)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", id, err)
	}
	ov.Run = id
	return ov, nil
}

// currentSnapshot returns the bytes of the run's committed snapshot.
func currentSnapshot(dir string) ([]byte, error) {
	pointer, err := os.ReadFile(filepath.Join(dir, "state.json"))
	if errors.Is(err, os.ErrNotExist) {
		return legacySnapshot(dir)
	}
	if err != nil {
		return nil, err
	}
	var cur struct {
		Format     string  `json:"format"`
		Generation *uint64 `json:"generation"`
		Manifest   string  `json:"manifest_sha256"`
	}
	if err := strictJSON(pointer, &cur); err != nil || cur.Format != "aep.driver-state-current/1" || cur.Generation == nil {
		return nil, fmt.Errorf("state.json is not an `aep.driver-state-current/1` pointer")
	}
	gen := filepath.Join(dir, "generations", strconv.FormatUint(*cur.Generation, 10))
	manifest, err := readSum(filepath.Join(gen, "manifest.json"), cur.Manifest)
	if err != nil {
		return nil, err
	}
	var m struct {
		Format     string  `json:"format"`
		Generation *uint64 `json:"generation"`
		Snapshot   string  `json:"snapshot_sha256"`
		Cursor     string  `json:"cursor_sha256"`
	}
	if err := strictJSON(manifest, &m); err != nil || m.Format != "aep.driver-state-generation/1" ||
		m.Generation == nil || *m.Generation != *cur.Generation {
		return nil, fmt.Errorf("generation %d: manifest.json is not its `aep.driver-state-generation/1` manifest", *cur.Generation)
	}
	snap, err := readSum(filepath.Join(gen, "snapshot.json"), m.Snapshot)
	if err != nil {
		return nil, err
	}
	if _, err := readSum(filepath.Join(gen, "cursor.json"), m.Cursor); err != nil {
		return nil, err
	}
	return snap, nil
}

// legacySnapshot reads the layout without state.json: snapshot.json and
// cursor.json side by side.
func legacySnapshot(dir string) ([]byte, error) {
	snap, serr := os.ReadFile(filepath.Join(dir, "snapshot.json"))
	_, cerr := os.ReadFile(filepath.Join(dir, "cursor.json"))
	switch {
	case serr == nil && cerr == nil:
		return snap, nil
	case serr != nil && cerr != nil:
		return nil, errors.New("no committed generation (no state.json, snapshot.json or cursor.json)")
	case serr != nil:
		return nil, errors.New("incomplete legacy layout: cursor.json without snapshot.json")
	default:
		return nil, errors.New("incomplete legacy layout: snapshot.json without cursor.json")
	}
}

// readSum reads path and checks that its sha256 is want (lowercase hex).
func readSum(path, want string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:]); got != want {
		return nil, fmt.Errorf("`%s` has sha256 %s, the manifest says %s", path, got, want)
	}
	return data, nil
}

// strictJSON decodes data into v, refusing unknown keys.
func strictJSON(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}
