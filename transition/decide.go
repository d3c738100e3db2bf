package transition

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/engine"
	"github.com/aepflow/aepflow/engine/artifact"
	"github.com/aepflow/aepflow/internal/deadline"
	"github.com/aepflow/aepflow/internal/diagline"
	"github.com/aepflow/aepflow/internal/fsio"
	"github.com/aepflow/aepflow/project"
	"github.com/aepflow/aepflow/tree"
	"github.com/aepflow/aepflow/yamldoc"
)

// Kind is the kind of an answer.
type Kind int

// Answers of a consultation (engine.md §8.6).
const (
	// Proceed: exit 0, nothing on stdout.
	Proceed Kind = iota
	// Refuse: exit 2, `{"reason":"…"}` on stdout.
	Refuse
	// Cannot: exit 1, one line on stderr; the loop reads it as a refusal.
	Cannot
)

// Outcome is the answer to one consultation.
type Outcome struct {
	Kind Kind
	// Reason is the refusal's reason (Refuse only).
	Reason string
	// Message names the input that could not be used (Cannot only); it is
	// one line, its control characters, line breaks and bidirectional
	// controls escaped (diag.EscapeText), since it quotes paths and flag
	// values.
	Message string
}

// ExitCode returns the process exit code of the outcome: 0, 2 or 1.
func (o Outcome) ExitCode() int {
	switch o.Kind {
	case Refuse:
		return 2
	case Cannot:
		return 1
	}
	return 0
}

// Stdout returns what the verb prints on stdout: the refusal's JSON line,
// or nothing.
func (o Outcome) Stdout() []byte {
	if o.Kind != Refuse {
		return nil
	}
	return RefusalJSON(o.Reason)
}

func proceed() Outcome { return Outcome{Kind: Proceed} }

func refuse(format string, args ...any) Outcome {
	return Outcome{Kind: Refuse, Reason: fmt.Sprintf(format, args...)}
}

func cannot(format string, args ...any) Outcome {
	return Outcome{Kind: Cannot, Message: diag.EscapeText(fmt.Sprintf(format, args...))}
}

// Options are the verb's flags (engine.md §8.1) and its environment. An
// empty string means the flag was not given.
type Options struct {
	Run     string
	Project string
	Root    string
	Task    string
	Store   string
	Map     string
	// PluginDirs are accepted and ignored.
	PluginDirs []string
	// WorkDir starts project discovery; "" is the process's directory.
	WorkDir string
	// Getenv reads AEP_PROJECT_DIR; nil is os.Getenv.
	Getenv func(string) string
	// Now is the engine's clock; the zero time is time.Now().
	Now time.Time
	// StdinWait bounds how long Consult waits for stdin to end; zero is
	// MaxStdinWait.
	StdinWait time.Duration
}

// MaxStdin bounds the stdin document, in bytes; the loop sends one short
// line.
const MaxStdin = 16 << 20

// MaxStdinWait bounds the time stdin may take to end. The loop writes its
// one line and closes the pipe at once; a stdin left open (a harness that
// never closes it, a terminal) would otherwise hang the consultation, and
// the run with it.
const MaxStdinWait = 10 * time.Second

// Consult answers one consultation: it reads stdin to EOF, within
// opts.StdinWait, and decides.
func Consult(stdin io.Reader, opts Options) Outcome {
	wait := opts.StdinWait
	if wait <= 0 {
		wait = MaxStdinWait
	}
	// A file (the loop's pipe) is waited on where it is read; any other
	// reader is read on a goroutine a stdin that never ends leaves behind,
	// whose panic still reaches the program's recover (deadline.ReaderWithin).
	data, err := fsio.ReadAll(deadline.ReaderWithin(stdin, wait), "stdin", MaxStdin)
	if errors.Is(err, deadline.ErrExpired) {
		return cannot("stdin did not end within %v: the loop writes one line and closes it", wait)
	}
	if fsio.IsTooLarge(err) {
		return cannot("stdin is not the loop's JSON: it exceeds %d bytes", MaxStdin)
	}
	if err != nil {
		return cannot("cannot read stdin: %v", err)
	}
	return Decide(data, opts)
}

// Decide runs the decision procedure of engine.md §8.3 over the stdin
// document, in exactly that order. Steps 1–5 touch no file; nothing is
// ever written.
func Decide(stdin []byte, opts Options) Outcome {
	in, err := ParseInput(stdin)
	if err != nil {
		return cannot("stdin is not the loop's JSON: %v", err)
	}
	if in.Hook != "transition" {
		return proceed()
	}
	if in.Moment != Enter && in.Moment != Leave {
		return cannot("moment %q is neither %q nor %q", in.Moment, Enter, Leave)
	}
	if in.Moment == Leave && in.Failed {
		return proceed()
	}
	wanted := FlowState(in.Path, in.Moment)
	pos, out := Position(opts, wanted)
	if pos == nil {
		return out
	}
	return decideAt(pos, in, wanted)
}

// decideAt runs steps 7–11 against a positioned execution.
func decideAt(pos *Positioned, in Input, wanted string) Outcome {
	exec, wf := pos.Exec, pos.Exec.Plan.Workflow
	if wanted == "" {
		if in.Moment == Enter || pos.Run == nil {
			return proceed()
		}
		return transitionCopy(exec)
	}
	if wf.States[wanted] == nil {
		return refuse("flow path %q names `%s`, which is not a state of workflow `%s`", in.Path, wanted, wf.Ref())
	}
	c := exec.State
	if in.Moment == Enter {
		if c == wanted || pos.Run == nil {
			return proceed()
		}
		ev, err := exec.Evaluate()
		if err != nil {
			return refuse("the engine refused: %v", err)
		}
		for _, m := range ev.Moves {
			if m.To != wanted {
				continue
			}
			if m.Permitted {
				return proceed()
			}
			return refuse("%s -> %s: %s", c, wanted, strings.Join(m.Unmet(), "; "))
		}
		return refuse("the run is at `%s`; workflow `%s` declares no move from `%s` to `%s`", c, wf.Ref(), c, wanted)
	}
	if c != wanted {
		return refuse("the flow leaves `%s` but the run is at `%s`: the flow and the run disagree", wanted, c)
	}
	return transitionCopy(exec)
}

// transitionCopy asks the engine to move a throwaway copy: any move
// proceeds, a block refuses with its reasons.
func transitionCopy(exec *engine.Execution) Outcome {
	r, err := exec.Clone().Transition()
	if err != nil {
		return refuse("the engine refused: %v", err)
	}
	if r.Kind == engine.Blocked {
		if len(r.Reasons) == 0 {
			return refuse("%s: nothing may move yet", r.State)
		}
		return refuse("%s: %s", r.State, groupReasons(r.State, r.Reasons))
	}
	return proceed()
}

// groupReasons joins the engine's blocking reasons for a harness log: the
// lines of one move (`<state> -> <to>: <line>`, engine.md §5) are written
// once under their move, joined by "; ", and the moves are joined by
// " | ": `a -> b: guard: x; ? y | a -> c: ? z`. The lines are the engine's
// words; a line without a move prefix (a completion line) stands alone.
func groupReasons(state string, reasons []string) string {
	var b strings.Builder
	move := ""
	for _, r := range reasons {
		m, line := splitMove(state, r)
		switch {
		case b.Len() == 0:
		case m != "" && m == move:
			b.WriteString("; ")
			b.WriteString(line)
			continue
		case m == "" && move == "":
			b.WriteString("; ")
		default:
			b.WriteString(" | ")
		}
		move = m
		b.WriteString(r)
	}
	return b.String()
}

// splitMove splits `<state> -> <to>: <line>` into its move and its line;
// the move is "" when r has no such prefix. State ids hold no ": ", so the
// first one after the arrow ends the move.
func splitMove(state, r string) (move, line string) {
	rest, ok := strings.CutPrefix(r, state+" -> ")
	if !ok {
		return "", r
	}
	to, line, ok := strings.Cut(rest, ": ")
	if !ok || to == "" || strings.ContainsAny(to, " ;") {
		return "", r
	}
	return state + " -> " + to, line
}

// Positioned is an execution placed where the consultation asks about.
type Positioned struct {
	Exec *engine.Execution
	// Run is the run it was restored from, or nil for a fresh execution.
	Run *project.Run
}

// Position loads what the answer needs and places an execution (engine.md
// §8.5): restored from --run, or fresh at the initial state and, when
// wanted is another declared state, entered there without a guard. On
// failure it returns nil and the CANNOT outcome.
func Position(opts Options, wanted string) (*Positioned, Outcome) {
	loc, out := locate(opts)
	if loc == nil {
		return nil, out
	}
	// Every document is read and validated (engine.md §8.5); the answer
	// is one line, so no file's bytes are kept for printing source lines.
	docTree, diags := engine.LoadTreeWith(loc.root, tree.Options{NoSources: true}, loc.extra...)
	if diags.HasErrors() {
		return nil, cannot("cannot load the documents: %s", diagline.Join(diags))
	}
	data, err := fsio.ReadFile(loc.task, yamldoc.MaxFileSize)
	if err != nil {
		return nil, cannot("cannot read the task `%s`: %s", loc.task, fsio.Reason(err))
	}
	task, diags := engine.ReadTask(loc.task, data)
	if diags.HasErrors() {
		return nil, cannot("cannot read the task: %s", diagline.Join(diags))
	}
	graph, diags := artifact.ReadStore(loc.store)
	if diags.HasErrors() {
		return nil, cannot("cannot read the planning store: %s", diagline.Join(diags))
	}
	plan, diags := engine.Resolve(docTree, task)
	if diags.HasErrors() {
		return nil, cannot("cannot resolve task `%s`: %s", task.ID, diagline.Join(diags))
	}
	if opts.Map != "" {
		if err := CheckMap(opts.Map, docTree, plan.Workflow); err != nil {
			return nil, cannot("--map %s: %v", opts.Map, err)
		}
	}
	now := opts.Now
	if now.IsZero() {
		now = time.Now()
	}
	if loc.run == nil {
		exec := engine.NewExecution(plan, graph, now)
		if wanted != "" && wanted != exec.State && plan.Workflow.States[wanted] != nil {
			exec.EnterState(wanted)
		}
		return &Positioned{Exec: exec}, Outcome{}
	}
	run := loc.run
	snap, diags := engine.DecodeSnapshot(run.SnapshotFile, run.Snapshot)
	if diags.HasErrors() {
		return nil, cannot("run %s: cannot read the snapshot: %s", run.ID, diagline.Join(diags))
	}
	exec, err := engine.Restore(plan, graph, snap, now)
	if err != nil {
		return nil, cannot("run %s: cannot restore the snapshot: %v", run.ID, err)
	}
	return &Positioned{Exec: exec, Run: run}, Outcome{}
}

// location is where the documents, task, store and run are.
type location struct {
	root  string
	extra []engine.ExtraDir
	task  string
	store string
	run   *project.Run
}

// locate finds the project and every location: flags first, then the
// run's launch.json, then project.yaml.
func locate(opts Options) (*location, Outcome) {
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	// Without --project, discovery starts at WorkDir; "" is the working
	// directory, which FindProject's filepath.Abs resolves.
	start, explicit := opts.Project, opts.Project != ""
	if !explicit {
		start = opts.WorkDir
	}
	proj, err := project.Open(start, explicit, getenv)
	if err != nil {
		return nil, cannot("%v", err)
	}
	loc := &location{root: opts.Root, task: opts.Task, store: opts.Store}
	if opts.Run != "" {
		if out, ok := loc.readRun(opts, proj); !ok {
			return nil, out
		}
	}
	if loc.root == "" {
		if proj.RootErr != nil {
			return nil, cannot("%v", proj.RootErr)
		}
		loc.root = proj.Root
		loc.extra = []engine.ExtraDir{{Kind: "principles", Dir: proj.Principles}, {Kind: "profiles", Dir: proj.Profiles}}
	}
	if loc.task == "" {
		loc.task = proj.Task
	}
	if loc.store == "" {
		if proj.StoreErr != nil {
			return nil, cannot("%v", proj.StoreErr)
		}
		loc.store = proj.Store
	}
	return loc, Outcome{}
}

// readRun validates --run and reads the run directory, letting its
// launch.json fill the task and root the flags left out. The run is read
// here, once; the snapshot is decoded after resolution.
func (loc *location) readRun(opts Options, proj *project.Project) (Outcome, bool) {
	run, err := proj.ReadRun(opts.Run)
	if err != nil {
		return cannot("%v", err), false
	}
	loc.run = run
	if l := run.Launch; l != nil {
		if loc.task == "" && l.TaskDocument != "" {
			loc.task = launchPath(proj, l.TaskDocument)
		}
		if loc.root == "" && l.Root != "" {
			loc.root = launchPath(proj, l.Root)
		}
	}
	return Outcome{}, true
}

// launchPath resolves a launch.json path: absolute as written, relative
// to the project directory.
func launchPath(proj *project.Project, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(proj.Dir, filepath.FromSlash(p))
}
