package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// writeFile writes data under dir/rel, creating the directories.
func writeFile(dir, rel string, data []byte) error {
	path := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// stateName is a short state id (`s` and base 36), so that a workflow of
// 80,000 states stays under the 4 MiB document bound.
func stateName(i int) string { return "s" + strconv.FormatInt(int64(i), 36) }

// writeChainWorkflow writes a tree under dir whose only document is the
// workflow bench/gen: a chain of n states and a terminal, a guarded retreat
// five states back every tenth state (so the projection builds retreat
// groups), titles only (a summary per state would not fit 80,000 states in
// the document bound; every slot then warns that it has no prompt, which
// is part of the work measured).
func writeChainWorkflow(dir string, n int) error {
	path := filepath.Join(dir, "workflows", "bench", "gen.yaml")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	fmt.Fprintf(w, "id: bench/gen\ntitle: Generated\ninitial: s0\nstates:\n")
	for i := range n {
		fmt.Fprintf(w, " %s: {title: T}\n", stateName(i))
	}
	fmt.Fprintf(w, " done: {title: D, terminal: true}\ntransitions:\n")
	for i := 0; i+1 < n; i++ {
		fmt.Fprintf(w, "- {from: %s, to: %s}\n", stateName(i), stateName(i+1))
		if i%10 == 9 {
			fmt.Fprintf(w, "- {from: %s, to: %s, when: x.y}\n", stateName(i), stateName(i-5))
		}
	}
	fmt.Fprintf(w, "- {from: %s, to: done}\n", stateName(n-1))
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func splitLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}
