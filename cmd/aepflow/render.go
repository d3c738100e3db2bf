package main

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/internal/fsio"
	"github.com/aepflow/aepflow/render"
	"github.com/aepflow/aepflow/workflow"
	"github.com/aepflow/aepflow/yamldoc"
	"github.com/spf13/cobra"
)

func init() { register("render", newRenderCmd) }

// renderCompanion is the binary that draws SVG and PNG; aepflow itself must
// not link go-graphviz (rendering.md §6.3, docs/render.md).
const renderCompanion = "aepflow-render"

// renderCompanionEnv names an explicit path to the companion; it wins over
// the lookup next to aepflow and on PATH.
const renderCompanionEnv = "AEPFLOW_RENDER"

// renderFlags holds the command line of `aepflow render`.
type renderFlags struct {
	id, root, format, out, run, state, clusters string
	check                                       bool
	// formatSet is whether --format was given; toTerminal whether the
	// output would go to a terminal.
	formatSet, toTerminal bool
	// timeout bounds the companion's layout (svg, png).
	timeout time.Duration
}

func newRenderCmd() *cobra.Command {
	var f renderFlags
	cmd := &cobra.Command{
		Use:   "render --id REF [--root DIR] [--format svg|png|dot|mermaid] [--snapshot FILE | --run RUN-ID] [--clusters phases] [--out FILE] [--check] [--timeout DURATION]",
		Short: "Draw a workflow as SVG, PNG, Graphviz DOT or Mermaid, optionally with a run on it",
		Long: `Render draws the workflow REF (` + "`adp/default`" + ` or pinned ` + "`adp/default/2`" + `) of the
document tree at --root: states in layout order, the initial marker, terminal states
as double circles, guards on the edges, retreats (edges back up the layout) dashed.
Mermaid adds each state's requirements as a note. See docs/render.md.

Formats: dot and mermaid are text written by aepflow itself, byte-stable, fit to
commit (Mermaid renders on GitHub). svg (the default) and png are laid out by
Graphviz in the companion binary aepflow-render, which aepflow runs: it is looked
for in $AEPFLOW_RENDER, then next to the aepflow executable, then on PATH
(` + "`go install ./cmd/...`" + ` installs both). png needs --out.

A run overlay marks the current state and the states entered: --snapshot reads an
engine snapshot file (--state is its old name), --run reads run TASK/N of the project found from the
working directory (.engineering/runs/TASK/N, read-only). Every state they name
must be declared by the workflow.

--out writes the file atomically and prints its path. --check (dot and mermaid,
with --out) writes nothing and exits 1 with a unified diff when the file is not
exactly what this run would write.

Exit codes: 0 written (or --check found the file fresh); 1 the tree does not load,
the workflow is unknown, the snapshot or run cannot be read or names undeclared
states, rendering or writing failed, or --check found the file stale; 2 usage
error.`,
		Example: `  # Mermaid for a README, and a CI check that it is current
  mkdir -p docs && aepflow render --id adp/default --root tree --format mermaid --out docs/workflow.mmd
  aepflow render --id adp/default --root tree --format mermaid --out docs/workflow.mmd --check

  # an SVG with one cluster per phase
  aepflow render --id adp/default/2 --root tree --clusters phases --out workflow.svg

  # where run AUTH-142/3 is and where it has been
  aepflow render --id adp/default --root tree --run AUTH-142/3 --format png --out run.png`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f.formatSet = cmd.Flags().Changed("format")
			f.toTerminal = (f.out == "" || f.out == stdio) && isTerminal(cmd.OutOrStdout())
			if err := f.validate(); err != nil {
				return err
			}
			if cmd.Flags().Changed("state") {
				if cmd.Flags().Changed("snapshot") {
					return usageError("--state is the old name of --snapshot; give one")
				}
				printLine(cmd.ErrOrStderr(), "warning: --state is the old name of --snapshot")
			}
			return runRender(cmd, f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.id, "id", "", "workflow reference `REF`, such as adp/default or adp/default/2 (required)")
	fl.StringVar(&f.root, "root", ".", "root `DIR` of the document tree")
	outFormatFlag(fl, &f.format, "svg", "svg, png, dot or mermaid")
	fl.StringVar(&f.out, "out", "", "write to `FILE` (atomically; - for stdout) and print its path")
	fl.StringVar(&f.run, "run", "", "overlay run `TASK/N` of the project found from the working directory")
	fl.StringVar(&f.state, "snapshot", "", "overlay the run in this engine snapshot `FILE` (- for stdin)")
	// --state was the flag's first name; evaluate's --state names a state,
	// so the file is --snapshot everywhere and --state stays as an alias.
	fl.StringVar(&f.state, "state", "", "the same as --snapshot")
	_ = fl.MarkHidden("state")
	fl.StringVar(&f.clusters, "clusters", "", "group states into clusters by `KIND`: phases (dot, svg, png)")
	fl.BoolVar(&f.check, "check", false, "with --out: exit 1 with a diff when the file is stale; write nothing")
	fl.DurationVar(&f.timeout, "timeout", 60*time.Second, "give up on an svg or png layout that takes longer than this `DURATION`")
	completeRoot(cmd)
	readsStdin(cmd, "snapshot", "state")
	_ = cmd.RegisterFlagCompletionFunc("id", completeWorkflowIDs)
	_ = cmd.RegisterFlagCompletionFunc("format", fixedCompletion(renderFormats...))
	_ = cmd.RegisterFlagCompletionFunc("clusters", fixedCompletion("phases"))
	_ = cmd.RegisterFlagCompletionFunc("snapshot", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return []string{"json"}, cobra.ShellCompDirectiveFilterFileExt
	})
	return cmd
}

// renderFormats lists the values of --format.
var renderFormats = []string{"dot", "mermaid", "png", "svg"}

// renderExtensions maps the extensions of --out to the format they name.
var renderExtensions = map[string]string{
	".dot": "dot", ".gv": "dot", ".mmd": "mermaid", ".mermaid": "mermaid", ".png": "png", ".svg": "svg",
}

// formatFromOut applies --out's extension (issue 11) as every command does
// (formatFromOut): without --format the extension names the format (no
// extension keeps the default, svg), and one that names another format
// than --format is a contradiction. Here an extension that names none
// needs --format too.
func (f *renderFlags) formatFromOut() error {
	if ext := filepath.Ext(f.out); ext != "" && !f.formatSet {
		if _, known := renderExtensions[strings.ToLower(ext)]; !known {
			return usageError("cannot tell the format from --out %s: give --format (svg, png, dot or mermaid), or name the file .svg, .png, .dot or .mmd", f.out)
		}
	}
	format, err := formatFromOut(f.out, f.format, f.formatSet, renderFormats, renderExtensions)
	if err != nil {
		return err
	}
	f.format = format
	return nil
}

// validate applies the flag rules of rendering.md §1; each break is a usage
// error.
func (f *renderFlags) validate() error {
	if f.id != "" && slices.Contains(renderFormats, f.format) {
		if err := f.formatFromOut(); err != nil {
			return err
		}
	}
	switch {
	case f.id == "":
		return usageError("--id is required")
	case !slices.Contains(renderFormats, f.format):
		return checkEnum("format", f.format, renderFormats)
	case f.format == "png" && f.toTerminal:
		return usageError("--format png is not written to a terminal: give --out FILE, or redirect standard output")
	case f.state != "" && f.run != "":
		return usageError("--snapshot and --run are mutually exclusive")
	case f.clusters != "" && f.clusters != "phases":
		return checkEnum("clusters", f.clusters, []string{"phases"})
	case f.check && f.format != "dot" && f.format != "mermaid":
		return usageError("--check works with --format dot or mermaid, not %s", f.format)
	case f.check && (f.out == "" || f.out == stdio):
		return usageError("--check needs --out: the file to compare")
	case f.timeout <= 0:
		return usageError("--timeout must be positive, not %v", f.timeout)
	}
	if err := checkRootDir(f.root); err != nil {
		return err
	}
	return nil
}

// runRender loads, draws and writes (or checks) the picture.
func runRender(cmd *cobra.Command, f renderFlags) error {
	stderr := cmd.ErrOrStderr()
	sources := diag.Sources{}
	w, _, ds := loadTreeWorkflow(cmd, f.root, f.id, sources)
	if w == nil {
		return reportDiagnostics(stderr, ds, sources)
	}
	if len(ds) > 0 {
		_ = writeText(stderr, ds.Sorted(), sources)
	}
	var err error
	opts := render.Options{ClusterPhases: f.clusters == "phases"}
	if opts.Overlay, err = renderOverlay(cmd, f, w, sources); err != nil {
		return renderRefuse(stderr, err, sources)
	}
	var doc []byte
	switch f.format {
	case "dot":
		doc = render.DOT(w, opts)
	case "mermaid":
		if ws := render.MermaidWarnings(w); len(ws) > 0 {
			_ = writeText(stderr, ws, sources)
		}
		doc = render.Mermaid(w, opts)
	default:
		if render.TooLargeToLayout(w) {
			return exitWith(exitProblems, fmt.Errorf("workflow `%s` has %d states and %d transitions; %s lays out at most %d and %d (use --format dot or mermaid)",
				w.ID, len(w.States), len(w.Transitions), f.format, render.MaxLayoutStates, render.MaxLayoutTransitions))
		}
		opts.Tooltips = true
		if doc, err = renderWithCompanion(render.DOT(w, opts), f.format, f.timeout); err != nil {
			return exitWith(exitProblems, err)
		}
	}
	return emitDocument(cmd, f.out, f.check, doc)
}

// renderOverlay reads the overlay of --snapshot or --run, if any, and checks it
// against the workflow; a snapshot's bytes go into sources.
func renderOverlay(cmd *cobra.Command, f renderFlags, w *workflow.Workflow, sources diag.Sources) (*render.Overlay, error) {
	var ov *render.Overlay
	var source string // what the overlay was read from, named in a refusal
	switch {
	case f.state != "":
		data, err := readInput(cmd, "--snapshot", f.state, yamldoc.MaxFileSize)
		if err != nil {
			return nil, fmt.Errorf("cannot read the snapshot: %v", err)
		}
		source = inputName(f.state)
		sources[source] = data // the lines under a diagnostic at its values
		if ov, err = render.ReadSnapshot(source, data); err != nil {
			return nil, err
		}
	case f.run != "":
		var err error
		if ov, err = render.ReadRun(".", f.run, os.Getenv); err != nil {
			return nil, err
		}
		noteInputs(cmd, ov.Files...) // no --out lands on the run it draws
		source = f.run
	default:
		return nil, nil
	}
	if ds := ov.Check(w); ds.HasErrors() {
		for i := range ds {
			if ds[i].File == "" {
				ds[i] = ds[i].InFile(source)
			}
		}
		return nil, ds.Err()
	}
	return ov, nil
}

// renderRefuse prints a refusal (diagnostics as text, other errors as one
// line) and returns the exit-1 error.
func renderRefuse(stderr io.Writer, err error, sources diag.Sources) error {
	if list, ok := diag.AsList(err); ok {
		_ = writeText(stderr, list, sources)
		return exitWith(exitProblems, nil)
	}
	return exitWith(exitProblems, err)
}

// renderWithCompanion runs aepflow-render to lay out dot as format within
// timeout. The companion dies with aepflow (a parent-death signal on
// Linux, armed by the kernel before it runs, and again by the companion
// itself), is killed when aepflow is told to stop (companions), and is
// killed when it outlives its own time bound by a grace period.
func renderWithCompanion(dot []byte, format string, timeout time.Duration) ([]byte, error) {
	bin, err := findRenderCompanion()
	if err != nil {
		return nil, err
	}
	bound := timeout + companionGrace
	if bound < timeout {
		bound = math.MaxInt64 // the largest --timeout, plus the grace, wrapped below zero
	}
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	var stdout, stderr bytes.Buffer
	out := &cappedWriter{w: &stdout, n: maxCompanionOutput, kill: cancel}
	errOut := &cappedWriter{w: &stderr, n: maxCompanionOutput, kill: cancel}
	c := exec.CommandContext(ctx, bin, "--format", format, "--timeout", timeout.String())
	c.Stdin = bytes.NewReader(dot)
	c.Stdout, c.Stderr = out, errOut
	c.Env = append(os.Environ(), companionParentEnv+"="+strconv.Itoa(os.Getpid()))
	dieWithParent(c)
	// The parent-death signal fires when the thread that started the
	// child ends, not the process: keep this goroutine on its thread
	// until the companion is gone.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := c.Start(); err != nil {
		return nil, fmt.Errorf("cannot start %s: %v", bin, err)
	}
	companions.add(c.Process)
	err = c.Wait()
	companions.remove(c.Process)
	if out.over || errOut.over {
		return nil, fmt.Errorf("%s wrote more than %s to its standard output or error and was stopped; nothing was written", bin, fsio.FormatSize(int64(maxCompanionOutput)))
	}
	if ctx.Err() == context.DeadlineExceeded {
		return nil, fmt.Errorf("%s did not finish within %v and was stopped; the graph is too costly to lay out: use --format dot or mermaid", bin, bound)
	}
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("%s failed: %s", bin, msg)
	}
	if why := notAPicture(stdout.Bytes(), format); why != "" {
		return nil, fmt.Errorf("%s exited 0 but wrote no %s picture: %s; nothing was written (is it aepflow's companion? `aepflow-render --version` names it)", bin, format, why)
	}
	return stdout.Bytes(), nil
}

// pngSignature and pngEnd are the first and last bytes of every PNG file
// (the IEND chunk, empty, with its CRC).
var (
	pngSignature = []byte("\x89PNG\r\n\x1a\n")
	pngEnd       = []byte("\x00\x00\x00\x00IEND\xaeB`\x82")
)

// notAPicture says why pic, the companion's output, is not a whole picture
// in format, or returns "": a PNG from its signature and header to its end
// chunk, an SVG a well-formed XML document whose root is <svg>. A
// companion that exits 0 is not taken at its word: a picture cut short or
// of the other format would be written as the answer.
func notAPicture(pic []byte, format string) string {
	if len(pic) == 0 {
		return "its output is empty"
	}
	if format == "png" {
		if !bytes.HasPrefix(pic, pngSignature) || !bytes.HasPrefix(pic[len(pngSignature):], []byte("\x00\x00\x00\x0dIHDR")) {
			return "its output does not start as a PNG does"
		}
		if !bytes.HasSuffix(pic, pngEnd) {
			return "its output does not end as a PNG does (cut short?)"
		}
		return ""
	}
	d := xml.NewDecoder(bytes.NewReader(pic))
	d.Entity = xml.HTMLEntity // Graphviz passes &nbsp; and the like through from labels
	depth, root := 0, ""
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Sprintf("its output is not well-formed SVG (%v)", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				if root != "" {
					return "its output holds more than one root element"
				}
				root = t.Name.Local
			}
			depth++
		case xml.EndElement:
			depth--
		case xml.CharData:
			if depth == 0 && len(bytes.TrimSpace(t)) > 0 {
				return "its output holds text outside the SVG element"
			}
		}
	}
	switch {
	case root == "":
		return "its output holds no SVG element"
	case root != "svg":
		return fmt.Sprintf("its output's root element is <%s>, not <svg>", root)
	case depth != 0:
		return "its output ends inside the SVG element (cut short?)"
	}
	return ""
}

// maxCompanionOutput bounds what aepflow holds of the companion's standard
// output, and of its standard error: far over the largest PNG it paints
// (64 Mpixels, compressed) and any SVG of a graph within its caps. A
// variable so that tests can make it small.
var maxCompanionOutput = 256 << 20

// cappedWriter passes writes to w until n bytes are exceeded; then it
// records it, kills the companion (kill) and fails every write, so that a
// companion that writes without end is neither buffered nor waited for.
type cappedWriter struct {
	w    io.Writer
	n    int
	kill func()
	over bool
}

func (c *cappedWriter) Write(p []byte) (int, error) {
	if c.over || len(p) > c.n {
		if !c.over {
			c.over = true
			c.kill()
		}
		return 0, errors.New("output over its bound")
	}
	c.n -= len(p)
	return c.w.Write(p)
}

// companionGrace is how long past its own time bound aepflow waits for the
// companion before killing it.
var companionGrace = 5 * time.Second

// companionParentEnv passes aepflow's pid to the companion
// (aepflow-render's ParentEnv).
const companionParentEnv = "AEPFLOW_RENDER_PARENT"

// processSet holds the companions running, so that the stop handler can
// kill them.
type processSet struct {
	mu    sync.Mutex
	procs map[*os.Process]bool
}

// companions are the aepflow-render processes this process runs.
var companions = &processSet{procs: map[*os.Process]bool{}}

func (s *processSet) add(p *os.Process) {
	s.mu.Lock()
	s.procs[p] = true
	s.mu.Unlock()
}

func (s *processSet) remove(p *os.Process) {
	s.mu.Lock()
	delete(s.procs, p)
	s.mu.Unlock()
}

// killCompanions kills every companion running; aepflow calls it when it
// is told to stop.
func killCompanions() {
	companions.mu.Lock()
	defer companions.mu.Unlock()
	for p := range companions.procs {
		_ = p.Kill()
	}
}

// findRenderCompanion looks for aepflow-render in $AEPFLOW_RENDER, next to
// the running executable, then on PATH.
func findRenderCompanion() (string, error) {
	if p := os.Getenv(renderCompanionEnv); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("$%s names `%s`: %v", renderCompanionEnv, p, err)
		}
		return p, nil
	}
	exe, err := os.Executable()
	if err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		p := filepath.Join(filepath.Dir(exe), renderCompanion)
		if info, err := os.Stat(p); err == nil && !info.IsDir() {
			return p, nil
		}
	}
	if p, err := exec.LookPath(renderCompanion); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("svg and png are drawn by the companion binary `%s`, found neither next to aepflow nor on PATH; "+
		"install it with `go install ./cmd/...` from the aepflow module, or use --format dot or mermaid", renderCompanion)
}
