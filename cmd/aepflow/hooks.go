package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/aepflow/aepflow/flow"
	"github.com/aepflow/aepflow/internal/atomicfile"
	"github.com/spf13/cobra"
)

func init() { register(newHooksCmd) }

// projectMarkerDir returns the name of the project's marker directory:
// `.engineering`, or $AEP_PROJECT_DIR when set and not blank (engine.md §7.1).
func projectMarkerDir() string {
	if d := os.Getenv("AEP_PROJECT_DIR"); d != "" {
		return d
	}
	return ".engineering"
}

// discoverProject searches from dir upward, at most 12 directories, for the
// first one holding `<marker>/project.yaml` (engine.md §7.1); it returns dir
// itself when there is none.
func discoverProject(dir string) string {
	marker := projectMarkerDir()
	for d, i := dir, 0; i < 12; i++ {
		if st, err := os.Stat(filepath.Join(d, marker, "project.yaml")); err == nil && !st.IsDir() {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return dir
}

func newHooksCmd() *cobra.Command {
	var out, project, root, task, store, stepMap, runID string
	cmd := &cobra.Command{
		Use:   "hooks --out FILE [--project DIR] [--root DIR] [--task FILE] [--store DIR] [--map FILE|ID] [--run TASK/N]",
		Short: "Write the b10x harness hooks file that wires `aepflow drive transition`",
		Long: `hooks writes the hooks file for ` + "`b10x-harness workflow run --hooks FILE`" + `: version 1
and one transition hook whose command is this aepflow binary (absolute path),
"drive", "transition", then --project and the drive-transition flags given.

Hooks run in the harness's working directory, not the workspace, so every
path is made absolute: the binary, --project (discovered when not given: the
nearest directory at most 12 levels up holding .engineering/project.yaml,
else the current directory), --root, --task, --store and --map when it names
an existing file (otherwise it is kept as a step-map id). --run is copied as
given. The file is written atomically and its path printed.

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
			if project == "" {
				wd, err := os.Getwd()
				if err != nil {
					return exitWith(exitUndecided, err)
				}
				project = discoverProject(wd)
			}
			argv := []string{exe, "drive", "transition"}
			for _, f := range []struct {
				name, value string
				path        bool
			}{
				{"--project", project, true}, {"--root", root, true}, {"--task", task, true},
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
			var b bytes.Buffer
			if err := flow.WriteHooks(&b, flow.TransitionHooks(argv)); err != nil {
				return exitWith(exitUndecided, err)
			}
			if err := atomicfile.Write(out, b.Bytes(), 0o644); err != nil {
				return exitWith(exitProblems, fmt.Errorf("cannot write %s: %w", out, err))
			}
			fmt.Fprintln(cmd.OutOrStdout(), out)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&out, "out", "", "hooks file to write (JSON)")
	f.StringVar(&project, "project", "", "project directory holding .engineering/ (default: discovered)")
	f.StringVar(&root, "root", "", "document tree passed to drive transition")
	f.StringVar(&task, "task", "", "task document passed to drive transition")
	f.StringVar(&store, "store", "", "planning store passed to drive transition")
	f.StringVar(&stepMap, "map", "", "step map file or id passed to drive transition")
	f.StringVar(&runID, "run", "", "run id TASK/N passed to drive transition")
	return cmd
}

// isFile reports whether p names an existing regular file.
func isFile(p string) bool {
	st, err := os.Stat(p)
	return p != "" && err == nil && st.Mode().IsRegular()
}
