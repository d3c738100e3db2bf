package main

import (
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aepflow/aepflow/engine"
	"github.com/aepflow/aepflow/ident"
	"github.com/aepflow/aepflow/internal/fsio"
	"github.com/aepflow/aepflow/tree"
	"github.com/aepflow/aepflow/yamldoc"
)

// This file holds the shell completion of flag values that are not files:
// directories for --root and its kin, and the ids a tree declares (read
// from the --root given earlier on the command line, or the working
// directory). Completion never fails: a tree that does not load completes
// what it can, or nothing.

// completeRoot makes --root (and any other given directory flag) complete
// directories only.
func completeRoot(cmd *cobra.Command, flags ...string) {
	for _, name := range append([]string{"root"}, flags...) {
		if cmd.Flags().Lookup(name) != nil {
			_ = cmd.RegisterFlagCompletionFunc(name, func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
				return nil, cobra.ShellCompDirectiveFilterDirs
			})
		}
	}
}

// completionTree loads the tree named by the command's --root, for
// completion; nil when it does not load at all.
func completionTree(cmd *cobra.Command) *tree.Tree {
	root := "."
	if f := cmd.Flags().Lookup("root"); f != nil && f.Value.String() != "" {
		root = f.Value.String()
	}
	if info, err := os.Stat(root); err != nil || !info.IsDir() {
		return nil
	}
	t, _ := tree.Load(root)
	return t
}

// completeWorkflowIDs completes the workflow ids of the tree at --root,
// each unpinned and pinned to its version (`adp/default`, `adp/default/2`).
func completeWorkflowIDs(cmd *cobra.Command, _ []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
	t := completionTree(cmd)
	if t == nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []string
	for _, id := range t.WorkflowIDs() {
		out = append(out, id, ident.Ref{ID: id, Major: t.Workflows[id].Version}.String())
	}
	return filterPrefix(out, prefix), cobra.ShellCompDirectiveNoFileComp
}

// completeStepMaps completes the step-map ids of the tree at --root, and
// files (a --map may be either).
func completeStepMaps(cmd *cobra.Command, _ []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
	t := completionTree(cmd)
	if t == nil {
		return nil, cobra.ShellCompDirectiveDefault
	}
	return filterPrefix(t.StepMapIDs(), prefix), cobra.ShellCompDirectiveDefault
}

// completeStates completes state ids: those of the workflow --id names
// when the command has one, else of the workflow --task resolves to, else
// of every workflow of the tree.
func completeStates(cmd *cobra.Command, _ []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
	t := completionTree(cmd)
	if t == nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var states []string
	if w := completionWorkflow(cmd, t); w != "" {
		states = t.Workflows[w].StateIDs()
	} else {
		for _, id := range t.WorkflowIDs() {
			states = append(states, t.Workflows[id].StateIDs()...)
		}
		slices.Sort(states)
		states = slices.Compact(states)
	}
	return filterPrefix(states, prefix), cobra.ShellCompDirectiveNoFileComp
}

// completionWorkflow returns the id of the workflow the command line
// names: --id, or the workflow of --task's profile; "" when neither tells.
func completionWorkflow(cmd *cobra.Command, t *tree.Tree) string {
	if f := cmd.Flags().Lookup("id"); f != nil && f.Value.String() != "" {
		if ref, err := ident.ParseRef(ident.Dotted, f.Value.String()); err == nil && t.Workflows[ref.ID] != nil {
			return ref.ID
		}
	}
	f := cmd.Flags().Lookup("task")
	if f == nil || f.Value.String() == "" {
		return ""
	}
	data, err := fsio.ReadFile(f.Value.String(), yamldoc.MaxFileSize)
	if err != nil {
		return ""
	}
	task, ds := engine.ReadTask(f.Value.String(), data)
	if ds.HasErrors() {
		return ""
	}
	plan, ds := engine.Resolve(t, task)
	if ds.HasErrors() || plan == nil || t.Workflows[plan.Workflow.ID] == nil {
		return ""
	}
	return plan.Workflow.ID
}

// filterPrefix keeps the values starting with prefix.
func filterPrefix(values []string, prefix string) []string {
	return slices.DeleteFunc(slices.Clone(values), func(v string) bool { return !strings.HasPrefix(v, prefix) })
}
