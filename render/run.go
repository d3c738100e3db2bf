package render

import (
	"fmt"
	"path/filepath"

	"github.com/aepflow/aepflow/engine"
	"github.com/aepflow/aepflow/project"
)

// This file turns an engine snapshot into an overlay. Decoding belongs to
// engine.DecodeSnapshot and reading a run directory to package project, so
// a snapshot here is read exactly as the transition hook reads it.

// maxSnapshot bounds the bytes of a snapshot file given with --state; a
// run's files are bounded by package project.
const maxSnapshot = 64 << 20

// SnapshotOverlay returns the overlay of an engine snapshot (rendering.md
// §5.1): its task, current state and states entered. The status is
// unknown. A snapshot with an empty `state` is refused: the overlay would
// mark no current state.
func SnapshotOverlay(s *engine.Snapshot) (*Overlay, error) {
	if s.State == "" {
		return nil, fmt.Errorf("the snapshot's `state` is empty")
	}
	return &Overlay{Task: s.Task, Current: s.State, Entered: s.Entered, Status: StatusUnknown,
		CurrentAt: s.At.State, EnteredAt: s.At.Entered}, nil
}

// ReadSnapshot decodes the engine snapshot data, read from file, with
// engine.DecodeSnapshot and returns its overlay. A snapshot that does not
// decode is refused with the decoder's diagnostics (a *diag.ListError).
func ReadSnapshot(file string, data []byte) (*Overlay, error) {
	if len(data) > maxSnapshot {
		return nil, fmt.Errorf("`%s` is %d bytes, over the cap of %d", file, len(data), maxSnapshot)
	}
	s, diags := engine.DecodeSnapshot(file, data)
	if diags.HasErrors() {
		return nil, diags.Err()
	}
	ov, err := SnapshotOverlay(s)
	if err != nil {
		return nil, fmt.Errorf("`%s`: %v", file, err)
	}
	ov.File = file
	return ov, nil
}

// ReadRun reads run id (`<task>/<n>`) of the project discovered from dir
// (engine.md §7.1–§7.3, AEP_PROJECT_DIR read through getenv) with package
// project, strictly read-only, and returns the overlay of its committed
// snapshot, whose run line names the run. The cursor is checked but not
// interpreted, so the status is unknown.
func ReadRun(dir, id string, getenv func(string) string) (*Overlay, error) {
	proj, err := project.Open(dir, false, getenv)
	if err != nil {
		return nil, err
	}
	run, err := proj.ReadRun(id)
	if err != nil {
		return nil, err
	}
	ov, err := ReadSnapshot(run.SnapshotFile, run.Snapshot)
	if err != nil {
		return nil, err
	}
	ov.Run = run.ID.String()
	ov.Files = append([]string{filepath.Join(proj.Eng, "project.yaml")}, run.Files...)
	return ov, nil
}
