package main

import (
	gobuildinfo "debug/buildinfo"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"

	"github.com/aepflow/aepflow/internal/buildinfo"
	"github.com/aepflow/aepflow/internal/fsio"
)

// The programs `aepflow hooks --via` can name in the hooks file.
const (
	viaAuto    = "auto"
	viaHook    = "aepflow-hook"
	viaAepflow = "aepflow"
)

var viaModes = []string{viaAuto, viaHook, viaAepflow}

// hookPackage is the main package of the aepflow-hook program.
const hookPackage = "github.com/aepflow/aepflow/cmd/aepflow-hook"

// maxExecutable bounds the executable sameBuildHook reads, in bytes.
const maxExecutable = 512 << 20

// hookProgram returns the start of the hook's command line for --via:
// aepflow-hook beside exe (the running aepflow) when via is aepflow-hook,
// or auto and that program is the same build; otherwise exe's `drive
// transition`. With auto, why a present aepflow-hook was passed over comes
// back as a note; with aepflow-hook, as the error.
func hookProgram(exe, via string) (argv []string, note string, err error) {
	verb := []string{exe, "drive", "transition"}
	if via == viaAepflow {
		return verb, "", nil
	}
	lean := filepath.Join(filepath.Dir(exe), viaHook)
	if runtime.GOOS == "windows" {
		lean += ".exe"
	}
	why := sameBuildHook(lean)
	switch {
	case why == nil:
		return []string{lean}, "", nil
	case via == viaHook:
		return nil, "", errors.New(fsio.Reason(why))
	case errors.Is(why, fs.ErrNotExist):
		return verb, "", nil
	}
	return verb, fmt.Sprintf("not naming %s: %s; the hook runs `%s drive transition`", lean, fsio.Reason(why), filepath.Base(exe)), nil
}

// sameBuildHook checks that path is an aepflow-hook program built as the
// running aepflow was (the same version, commit, work-tree state and Go),
// from the build information Go records in the executable, without running
// it: a stale aepflow-hook could answer by other rules than this aepflow's.
func sameBuildHook(path string) error {
	f, err := fsio.Open(path, maxExecutable)
	if err != nil {
		return err // worded by the caller (fsio.Reason), told apart when absent
	}
	defer f.Close()
	if runtime.GOOS != "windows" && f.Mode().Perm()&0o111 == 0 {
		return fmt.Errorf("it is not executable")
	}
	info, err := gobuildinfo.Read(f)
	if err != nil {
		return fmt.Errorf("it is not a Go program: %v", err)
	}
	if info.Path != hookPackage {
		return fmt.Errorf("it is not aepflow-hook but %s", info.Path)
	}
	if theirs, ours := buildinfo.From(info), buildinfo.Read(); theirs != ours {
		return fmt.Errorf("it is another build (%s) than this aepflow (%s)", theirs.Line(viaHook), ours.Line(viaAepflow))
	}
	return nil
}
