// Command runner is bench/run: it regenerates every figure in bench/*.md.
// Each page is declared in Go (a Page: the Go benchmarks, whole-process
// scalings and comparisons it reports) and worded by a template under
// bench/runner/pages; the runner measures, then writes the page whole, so
// no figure on a page is ever typed by hand. See bench/README.md.
//
// Usage (from the repository root, or through bench/run):
//
//	go run ./bench/runner [--quick] [--only PAGE,PAGE] [--rounds N] [--keep] [--list]
package main

import (
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// pages holds every page, registered by the files that declare them.
var pages = map[string]*Page{}

// register adds a page; a name registered twice is a programming error.
func register(p *Page) {
	if _, dup := pages[p.Name]; dup {
		panic("bench page registered twice: " + p.Name)
	}
	pages[p.Name] = p
}

// Work is the state one run shares between pages: where scratch files and
// pages go, the mode, and the binaries already built.
type Work struct {
	Dir     string // scratch directory, removed at the end unless --keep
	Pages   string // where pages are written: bench/
	Quick   bool
	Rounds  int // default rounds of whole-process runs
	Verbose bool
	bins    map[string]string
}

// Binary builds the package pkg (a path like ./cmd/aepflow) once per run
// and returns the binary's path.
func (w *Work) Binary(pkg string) (string, error) { return w.BinaryWith(pkg, "") }

// StaticBuild is the build environment the project recommends for the
// transition hook (README, docs/drive.md): no cgo, so a static binary that
// links no C library.
const StaticBuild = "CGO_ENABLED=0"

// BinaryWith builds pkg once per run with env (one VAR=value, or "" for
// the default build) added to go build's environment, and returns the
// binary's path.
func (w *Work) BinaryWith(pkg, env string) (string, error) { return w.BinaryBuild(pkg, env) }

// StripFlags are the go build flags of the recommended build of the
// programs the harness starts per consultation (README): no symbol table,
// no DWARF.
var StripFlags = []string{"-ldflags=-s -w"}

// BinaryBuild is BinaryWith with go build flags added.
func (w *Work) BinaryBuild(pkg, env string, flags ...string) (string, error) {
	key := pkg + " " + env + " " + strings.Join(flags, " ")
	if p, ok := w.bins[key]; ok {
		return p, nil
	}
	name := strings.ReplaceAll(strings.Trim(pkg, "./"), "/", "_")
	if env != "" {
		name += "-" + strings.ReplaceAll(strings.ToLower(env), "=", "")
	}
	if len(flags) > 0 {
		name += "-flags"
	}
	dir := filepath.Join(w.Dir, "bin", name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	w.logf("building %s %s %s", pkg, env, strings.Join(flags, " "))
	var envs []string
	if env != "" {
		envs = []string{env}
	}
	p, err := build(dir, pkg, envs, flags...)
	if err != nil {
		return "", err
	}
	w.bins[key] = p
	return p, nil
}

// Mkdir creates and returns a fresh scratch directory named name.
func (w *Work) Mkdir(name string) (string, error) {
	dir := filepath.Join(w.Dir, name)
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	return dir, os.MkdirAll(dir, 0o755)
}

// rounds returns how many rounds a whole-process run makes: its own
// count (or the default), a third of it in quick mode, never fewer than 3.
func (w *Work) rounds(own int) int {
	n := w.Rounds
	if own > 0 {
		n = own
	}
	if w.Quick {
		n /= 3
	}
	return max(n, 3)
}

// count is the -count of Go benchmark runs.
func (w *Work) count() int {
	if w.Quick {
		return 1
	}
	return 3
}

func (w *Work) logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench: "+format+"\n", args...)
}

func main() {
	quick := flag.Bool("quick", false, "fewer rounds and shorter Go benchmarks: a check that the pages still build, with noisier figures")
	only := flag.String("only", "", "comma-separated page names to regenerate (default: all)")
	roundsFlag := flag.Int("rounds", 9, "rounds of each whole-process run (a page may ask for more)")
	keep := flag.Bool("keep", false, "keep the scratch directory (its path is printed)")
	list := flag.Bool("list", false, "list the pages and exit")
	flag.Parse()
	if _, err := os.Stat(filepath.Join("bench", "runner", "pages")); err != nil {
		fmt.Fprintln(os.Stderr, "bench: run from the repository root (bench/run does)")
		os.Exit(2)
	}
	names := slices.Sorted(maps.Keys(pages))
	if *list {
		fmt.Println(strings.Join(names, "\n"))
		return
	}
	if *only != "" {
		want := strings.Split(*only, ",")
		for _, n := range want {
			if _, ok := pages[n]; !ok {
				fmt.Fprintf(os.Stderr, "bench: no page %q (pages: %s)\n", n, strings.Join(names, ", "))
				os.Exit(2)
			}
		}
		names = slices.DeleteFunc(names, func(n string) bool { return !slices.Contains(want, n) })
	}
	dir, err := os.MkdirTemp("", "aepflow-bench-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
	w := &Work{Dir: dir, Pages: "bench", Quick: *quick, Rounds: *roundsFlag, bins: map[string]string{}}
	if *keep {
		fmt.Fprintln(os.Stderr, "bench: scratch directory", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	failed := 0
	start := time.Now()
	for _, n := range names {
		if err := runPage(w, pages[n]); err != nil {
			fmt.Fprintf(os.Stderr, "bench: %s: %v\n", n, err)
			failed++
		}
	}
	fmt.Fprintf(os.Stderr, "bench: %d pages in %s, %d failed\n", len(names), time.Since(start).Round(time.Second), failed)
	if failed > 0 {
		if !*keep {
			os.RemoveAll(dir)
		}
		os.Exit(1)
	}
}

// runPage measures one page and writes it.
func runPage(w *Work, p *Page) error {
	m := describe()
	m.Mode = "full run"
	if w.Quick {
		m.Mode = "quick run"
	}
	r, err := p.measure(w)
	if err != nil {
		return err
	}
	m.LoadEnd = loadAverage()
	r.Machine = m
	if err := p.render(w, r); err != nil {
		return err
	}
	w.logf("wrote %s", filepath.Join(w.Pages, p.Name+".md"))
	return nil
}
