package project

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/aepflow/aepflow/ident"
)

// RunID names one run: `<task>/<n>` (engine.md §7.2).
type RunID struct {
	// Task is the task id, a loose identifier.
	Task string
	// N is the run number, ≥ 1.
	N uint32
}

// String returns `<task>/<n>`.
func (r RunID) String() string { return r.Task + "/" + strconv.FormatUint(uint64(r.N), 10) }

// ParseRunID splits s at its last `/` into a loose task id and a decimal
// u32 ≥ 1 (ASCII digits only, no sign). A loose id cannot hold `..` or start
// with `/`, so a valid id never leaves the runs directory.
func ParseRunID(s string) (RunID, error) {
	i := strings.LastIndexByte(s, '/')
	if i < 0 {
		return RunID{}, fmt.Errorf("run id %q is not `<task>/<n>`", s)
	}
	task, num := s[:i], s[i+1:]
	if err := ident.Check(ident.Loose, task); err != nil {
		return RunID{}, fmt.Errorf("run id %q: task id %q is not valid: %v", s, task, err)
	}
	if num == "" || strings.TrimLeft(num, "0123456789") != "" {
		return RunID{}, fmt.Errorf("run id %q: run number %q is not a decimal number", s, num)
	}
	n, err := strconv.ParseUint(num, 10, 32)
	if err != nil || n == 0 {
		return RunID{}, fmt.Errorf("run id %q: run number %q must be between 1 and 4294967295", s, num)
	}
	return RunID{Task: task, N: uint32(n)}, nil
}

// RunDir returns the run's directory under runs (the project's
// `.engineering/runs`), checking that the cleaned path lies inside it.
func RunDir(runs string, id RunID) (string, error) {
	dir := filepath.Join(runs, filepath.FromSlash(id.Task), strconv.FormatUint(uint64(id.N), 10))
	rel, err := filepath.Rel(filepath.Clean(runs), dir)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", fmt.Errorf("run `%s` would lie outside %s", id, runs)
	}
	return dir, nil
}

// ReadRun reads the project's run named id (`<task>/<n>`, as a user gives
// it) with ReadRun. An id that does not parse, or whose directory would lie
// outside the runs directory, is an error starting "bad run id: ".
//
// Containment is checked on resolved paths too: the runs directory, every
// symbolic link followed, must lie inside the engineering directory, and
// the run directory inside the runs directory. A symbolic link that leads
// out (runs/ itself, a task directory or the run directory) is refused,
// naming the link: the answer never comes from outside the project.
func (p *Project) ReadRun(id string) (*Run, error) {
	rid, err := ParseRunID(id)
	if err != nil {
		return nil, fmt.Errorf("bad run id: %v", err)
	}
	dir, err := RunDir(p.Runs(), rid)
	if err != nil {
		return nil, fmt.Errorf("bad run id: %v", err)
	}
	real, err := p.runContained(dir, rid)
	if err != nil {
		return nil, err
	}
	return readRun(dir, rid, real)
}

// runContained checks the runs directory against the engineering
// directory and the run directory against the runs directory, both
// resolved, and returns the run directory resolved ("" when it could not
// be: ReadRun resolves it). Paths that do not exist pass: ReadRun reports
// them missing.
func (p *Project) runContained(dir string, id RunID) (string, error) {
	eng, err := resolve(p.Eng)
	if err != nil {
		return "", nil
	}
	fail := func(err error) error { return &RunError{Message: fmt.Sprintf("run %s: %v", id, err)} }
	runs, err := contained(p.Runs(), p.Eng, eng, "the engineering directory "+p.Eng)
	if err != nil {
		return "", fail(err)
	}
	if runs == "" {
		return "", nil
	}
	real, err := contained(dir, p.Runs(), runs, "the runs directory "+p.Runs())
	if err != nil {
		return "", fail(err)
	}
	return real, nil
}
