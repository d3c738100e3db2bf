package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/aepflow/aepflow/flow"
	"github.com/aepflow/aepflow/internal/fsio"
	"github.com/aepflow/aepflow/project"
	"github.com/aepflow/aepflow/transition"
	"github.com/aepflow/aepflow/yamldoc"
	"github.com/spf13/cobra"
)

func init() { register("hooks", newHooksCmd) }

// discoverProject finds the project the way the hook will (engine.md §7.1,
// package project): the nearest directory from dir upward holding
// `.engineering/project.yaml` (or $AEP_PROJECT_DIR's name). It returns dir
// itself when there is none; the check before writing then refuses it.
func discoverProject(dir string) string {
	eng, err := project.EngineeringDirName(os.Getenv)
	if err != nil {
		return dir
	}
	found, err := project.FindProject(dir, false, eng)
	if err != nil {
		return dir
	}
	return found
}

func newHooksCmd() *cobra.Command {
	var out, projectDir, root, task, store, stepMap, runID, via string
	var pluginDirs []string
	cmd := &cobra.Command{
		Use:   "hooks --out FILE [--project DIR] [--root DIR] [--task FILE] [--store DIR] [--map FILE|ID] [--run TASK/N] [--plugin-dir DIR]... [--via PROGRAM]",
		Short: "Write the b10x harness hooks file that wires the transition hook (aepflow-hook or `aepflow drive transition`)",
		Long: `hooks writes the hooks file for ` + "`b10x-harness workflow run --hooks FILE`" + `: version 1
and one transition hook whose command is the hook program, then --project and
the drive-transition flags given. --via chooses the program: auto (the
default) names aepflow-hook beside this binary when it is the same build (read
from its build information, without running it), else this binary with
"drive", "transition", noting on stderr why a file named aepflow-hook was
passed over; aepflow-hook requires it; aepflow names this binary's verb.

Hooks run in the harness's working directory, not the workspace, so every
path is made absolute: the binary, --project (discovered when not given: the
nearest directory at most 12 levels up holding .engineering/project.yaml),
--root, --task, --store and --map when it names an existing file (otherwise
it is kept as a step-map id), and each --plugin-dir. --run is copied as
given, once it parses as TASK/N. The file is written atomically and its path
printed.

What the hook will meet is checked first, so that a typo is refused here
rather than by every later call: the project must exist, and a --map must
resolve (a file holding a valid step map, or a step-map id of the tree's
drivers/) and, when the task resolves, fit its workflow. The run, the task
and the store are not required yet, but a --task that exists must be a
regular file; --task - and --map - are refused (the hook's standard input is
the harness's JSON).

Exit codes: 0 written, 1 no project, a --map that does not resolve, a --task
that is not a regular file, --via aepflow-hook without that program, or the
file could not be written, 2 usage error.`,
		Example: `  aepflow hooks --out hooks.json
  aepflow hooks --out hooks.json --via aepflow-hook
  aepflow hooks --out .engineering/hooks.json --project . --map development/default
  aepflow hooks --out hooks.json --root ../protocols --run AUTH-142/3`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireFlags(cmd, "out"); err != nil {
				return err
			}
			if err := checkEnum("via", via, viaModes); err != nil {
				return err
			}
			for _, f := range []struct{ name, value string }{{"task", task}, {"map", stepMap}} {
				if f.value == stdio {
					return usageError("--%s -: the hook's standard input is the harness's JSON, not a file; name the file", f.name)
				}
			}
			// A value the hook refuses (`--run=`, `--root -`) is refused
			// here too: an empty one was dropped from the command, so a
			// `--run "$RUN"` with RUN unset wrote a hook that governs no run.
			given := transition.Options{Project: projectDir, Root: root, Task: task, Store: store, Map: stepMap, Run: runID, PluginDirs: pluginDirs}
			if err := given.CheckGiven(cmd.Flags().Changed); err != nil {
				return usageError("%v", err)
			}
			// A run id the hook cannot parse would be refused at every
			// consultation (`bad run id`): it is a typo, refused here.
			if runID != "" {
				if _, err := project.ParseRunID(runID); err != nil {
					if reason, ok := runIDReason(err); ok {
						return usageError("--run %q is not a run id `TASK/N`: %s", runID, reason)
					}
					return usageError("--run: %v", err)
				}
			}
			exe, err := os.Executable()
			if err != nil {
				return exitWith(exitUndecided, fmt.Errorf("cannot find the running binary: %w", err))
			}
			if exe, err = filepath.Abs(exe); err != nil {
				return exitWith(exitUndecided, err)
			}
			if projectDir == "" {
				wd, err := os.Getwd()
				if err != nil {
					return exitWith(exitUndecided, err)
				}
				projectDir = discoverProject(wd)
			}
			argv, note, err := hookProgram(exe, via)
			if err != nil {
				return exitWith(exitProblems, fmt.Errorf("not writing %s: --via %s: %v", out, via, err))
			}
			for _, f := range []struct {
				name, value string
				path        bool
			}{
				{"--project", projectDir, true}, {"--root", root, true}, {"--task", task, true},
				{"--store", store, true}, {"--map", stepMap, isFile(stepMap)}, {"--run", runID, false},
			} {
				if f.value == "" {
					continue
				}
				v := f.value
				if f.path {
					if v, err = filepath.Abs(v); err != nil {
						return exitWith(exitUndecided, err)
					}
				}
				argv = append(argv, f.name, v)
			}
			for _, d := range pluginDirs {
				abs, err := filepath.Abs(d)
				if err != nil {
					return exitWith(exitUndecided, err)
				}
				argv = append(argv, "--plugin-dir", abs)
			}
			if err := hookArgsText(argv); err != nil {
				return exitWith(exitProblems, fmt.Errorf("not writing %s: %v", out, err))
			}
			if err := checkHookTask(task); err != nil {
				return exitWith(exitProblems, fmt.Errorf("not writing %s: --task %s: %v", out, task, errText(err)))
			}
			reads, err := transition.CheckSetup(transition.Options{Project: projectDir, Root: root, Task: task, Store: store, Map: stepMap})
			if err != nil {
				return exitWith(exitProblems, fmt.Errorf("not writing %s: %v", out, err))
			}
			noteInputs(cmd, reads...)
			var b bytes.Buffer
			if err := flow.WriteHooks(&b, flow.TransitionHooks(argv)); err != nil {
				return exitWith(exitProblems, fmt.Errorf("not writing %s: %v", out, err))
			}
			noteHooksInputs(cmd, projectDir, task, stepMap)
			if note != "" {
				printLine(cmd.ErrOrStderr(), "note: "+note)
			}
			if err := writeOutput(cmd, out, b.Bytes(), false); err != nil || out == stdio {
				return err
			}
			return printPath(cmd, "", out)
		},
	}
	f := cmd.Flags()
	f.StringVar(&out, "out", "", "hooks `FILE` to write (JSON; - for stdout)")
	f.StringVar(&projectDir, "project", "", "project `DIR` holding .engineering/ (default: discovered)")
	f.StringVar(&root, "root", "", "document tree `DIR` passed to drive transition")
	f.StringVar(&task, "task", "", "task document `FILE` passed to drive transition")
	f.StringVar(&store, "store", "", "planning store `DIR` passed to drive transition")
	f.StringVar(&stepMap, "map", "", "step map passed to drive transition, a file or an id (`FILE|ID`)")
	f.StringVar(&runID, "run", "", "run id `TASK/N` passed to drive transition")
	f.StringVar(&via, "via", viaAuto, "the program the hook runs: `PROGRAM` = auto (aepflow-hook beside this binary when it is the same build, else aepflow), aepflow-hook or aepflow")
	f.StringArrayVar(&pluginDirs, "plugin-dir", nil, "plugin `DIR` passed to drive transition (repeatable; accepted and ignored by the verb)")
	completeRoot(cmd, "project", "store", "plugin-dir")
	_ = cmd.RegisterFlagCompletionFunc("via", fixedCompletion(viaModes...))
	_ = cmd.RegisterFlagCompletionFunc("map", completeStepMaps)
	return cmd
}

// noteHooksInputs records the files the hook will read as this command's
// inputs, so that --out cannot replace one of them with the hooks file:
// the project's project.yaml and task document, --task and a --map file
// (transition.CheckSetup names the tree's and the store's).
func noteHooksInputs(cmd *cobra.Command, projectDir, task, stepMap string) {
	noteInputs(cmd, task)
	if isFile(stepMap) {
		noteInputs(cmd, stepMap)
	}
	if p, err := project.Open(projectDir, true, os.Getenv); err == nil {
		noteInputs(cmd, filepath.Join(p.Eng, "project.yaml"), p.Task)
	}
}

// checkHookTask refuses a --task the hook could never read: one that exists
// and is not a regular file (a directory, a pipe, a device) or is over the
// document bound. A task that does not exist yet is fine: the hook reads
// it at each transition, by which time it may.
func checkHookTask(task string) error {
	if task == "" {
		return nil
	}
	f, err := fsio.Open(task, yamldoc.MaxFileSize)
	switch {
	case err == nil:
		return f.Close()
	case errors.Is(err, fs.ErrNotExist):
		return nil
	}
	return err
}

// hookArgsText refuses an argument of the hook's command that is not UTF-8
// text (a path holding the byte 0xff, which Linux allows): a JSON hooks
// file cannot carry it, and it would be written with U+FFFD in its place,
// so the hook would be run on a path that does not exist. The argument is
// named by the flag before it (the program for the first).
func hookArgsText(argv []string) error {
	for i, a := range argv {
		if utf8.ValidString(a) {
			continue
		}
		what := "the program"
		if i > 0 && strings.HasPrefix(argv[i-1], "--") {
			what = argv[i-1]
		}
		return fmt.Errorf("%s %s is not UTF-8 text, which a JSON hooks file cannot carry: the hook would be run on another path", what, a)
	}
	return nil
}

// runIDReason is ParseRunID's refusal without its `run id "…": ` lead,
// which the usage error says itself; false when it has none.
func runIDReason(err error) (string, bool) {
	msg := err.Error()
	if !strings.HasPrefix(msg, "run id ") {
		return "", false
	}
	_, rest, ok := strings.Cut(msg, `": `)
	return rest, ok
}

// isFile reports whether p names an existing regular file.
func isFile(p string) bool {
	st, err := os.Stat(p)
	return p != "" && err == nil && st.Mode().IsRegular()
}
