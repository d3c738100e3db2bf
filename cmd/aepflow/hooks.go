package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/aepflow/aepflow/flow"
	"github.com/aepflow/aepflow/project"
	"github.com/spf13/cobra"
)

func init() { register(newHooksCmd) }

// discoverProject finds the project the way the hook will (engine.md §7.1,
// package project): the nearest directory from dir upward holding
// `.engineering/project.yaml` (or $AEP_PROJECT_DIR's name). It returns dir
// itself when there is none, so that a hooks file can be written before the
// project is set up.
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
	var out, projectDir, root, task, store, stepMap, runID string
	var pluginDirs []string
	cmd := &cobra.Command{
		Use:   "hooks --out FILE [--project DIR] [--root DIR] [--task FILE] [--store DIR] [--map FILE|ID] [--run TASK/N] [--plugin-dir DIR]...",
		Short: "Write the b10x harness hooks file that wires `aepflow drive transition`",
		Long: `hooks writes the hooks file for ` + "`b10x-harness workflow run --hooks FILE`" + `: version 1
and one transition hook whose command is this aepflow binary (absolute path),
"drive", "transition", then --project and the drive-transition flags given.

Hooks run in the harness's working directory, not the workspace, so every
path is made absolute: the binary, --project (discovered when not given: the
nearest directory at most 12 levels up holding .engineering/project.yaml,
else the current directory), --root, --task, --store and --map when it names
an existing file (otherwise it is kept as a step-map id), and each
--plugin-dir. --run is copied as given. The file is written atomically and its path printed.

Exit codes: 0 written, 1 the file could not be written, 2 usage error.`,
		Example: `  aepflow hooks --out hooks.json
  aepflow hooks --out .engineering/hooks.json --project . --map development/default
  aepflow hooks --out hooks.json --root ../protocols --run AUTH-142/3`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" {
				return usageError("--out is required")
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
			argv := []string{exe, "drive", "transition"}
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
			var b bytes.Buffer
			if err := flow.WriteHooks(&b, flow.TransitionHooks(argv)); err != nil {
				return exitWith(exitUndecided, err)
			}
			noteHooksInputs(cmd, projectDir, task, stepMap)
			if err := writeOutput(cmd, out, b.Bytes(), false); err != nil || out == stdio {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), out)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&out, "out", "", "hooks file to write (JSON; - for stdout)")
	f.StringVar(&projectDir, "project", "", "project directory holding .engineering/ (default: discovered)")
	f.StringVar(&root, "root", "", "document tree passed to drive transition")
	f.StringVar(&task, "task", "", "task document passed to drive transition")
	f.StringVar(&store, "store", "", "planning store passed to drive transition")
	f.StringVar(&stepMap, "map", "", "step map file or id passed to drive transition")
	f.StringVar(&runID, "run", "", "run id TASK/N passed to drive transition")
	f.StringArrayVar(&pluginDirs, "plugin-dir", nil, "plugin directory passed to drive transition (repeatable; accepted and ignored by the verb)")
	return cmd
}

// noteHooksInputs records the files the hook will read as this command's
// inputs, so that --out cannot replace one of them with the hooks file:
// the project's project.yaml and task document, --task and a --map file.
func noteHooksInputs(cmd *cobra.Command, projectDir, task, stepMap string) {
	noteInputs(cmd, task)
	if isFile(stepMap) {
		noteInputs(cmd, stepMap)
	}
	if p, err := project.Open(projectDir, true, os.Getenv); err == nil {
		noteInputs(cmd, filepath.Join(p.Eng, "project.yaml"), p.Task)
	}
}

// isFile reports whether p names an existing regular file.
func isFile(p string) bool {
	st, err := os.Stat(p)
	return p != "" && err == nil && st.Mode().IsRegular()
}
