// Package graphviz lays out DOT text and draws it as SVG or PNG through
// github.com/goccy/go-graphviz (Graphviz compiled to WebAssembly).
//
// It is the only package of aepflow that imports go-graphviz, and it must stay
// out of the hook binary: the library compiles its WebAssembly module in its
// package init, which costs every process that links it tens of milliseconds
// (about half a second the first time on a machine: see cache.go), whichever
// subcommand runs (rendering.md §6.1, §6.3). Only the companion binary
// cmd/aepflow-render imports it.
//
// The library's defects shape this package (rendering.md §6.2): every call
// into it holds one package-level mutex, because it is not goroutine-safe; the
// format is checked against an allow-list before the library sees it, because
// an unsupported format corrupts the next call too; the context is always
// context.Background(), because a cancelled context closes the module for
// good, so work is bounded by input size instead; output always goes into a
// buffer, never through RenderFilename.
//
// It is not for producing DOT: package render writes the DOT text.
package graphviz

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sync"
	"time"

	gv "github.com/goccy/go-graphviz"
)

// Size caps refused before layout, so that a huge input cannot make the
// renderer run for minutes: cancellation is not available (see the package
// comment).
const (
	// MaxInput is the largest DOT text accepted, in bytes.
	MaxInput = 4 << 20
	// MaxNodes is the largest number of nodes laid out: 1 000 states plus
	// the initial marker.
	MaxNodes = 1001
	// MaxEdges is the largest number of edges laid out: 5 000 transitions
	// plus the initial edge.
	MaxEdges = 5001
)

// Formats lists the output formats this package renders, in byte order.
var Formats = []string{"png", "svg"}

// ErrTooLarge is wrapped by the error returned for input over a size cap.
var ErrTooLarge = errors.New("graph too large to lay out")

// ErrNoGraph is returned for input that holds no graph: empty, blank or
// only comments.
var ErrNoGraph = errors.New("parse DOT: the input holds no graph (it is empty, blank or only comments)")

// ErrFormat is wrapped by the error returned for a format outside Formats.
var ErrFormat = errors.New("unsupported format")

// ErrFileNamed is wrapped by the error returned for DOT that makes
// Graphviz open a file: an image, a shape file, an HTML <IMG>.
var ErrFileNamed = errors.New("the DOT names a file to read")

// engine is the Graphviz layout engine used for every render.
const engine = gv.DOT

// mu serialises every call into go-graphviz, whose WebAssembly instance is
// shared by the whole process and not safe for concurrent use. It also
// guards inst.
var mu sync.Mutex

// inst is the process's one renderer, created on first use and never closed:
// closing it (gvFreeContext) reports failure, with the text of the last
// syntax error, whenever any earlier parse in the process failed, even though
// the render it ends succeeded. Memory is returned when the process exits.
var inst *gv.Graphviz

// noFiles is the only filesystem Graphviz sees. go-graphviz otherwise
// mounts the host's (every path relative to the working directory), and
// Graphviz opens what the DOT names (image, shapefile, imagepath, an HTML
// <IMG>) to size its node, so that the picture would tell what a local
// file holds. Every open fails; opened records the first name asked, so
// that the render is refused rather than drawn without the file. It is
// guarded by mu.
var noFiles = &refusingFS{}

func init() { gv.SetFileSystem(noFiles) }

type refusingFS struct{ opened string }

// Open refuses name, recording it. wazero first opens the mount's root
// (".") to resolve a path in it: that is an empty directory, so that the
// open of the file itself reaches Open and is recorded.
func (r *refusingFS) Open(name string) (fs.File, error) {
	if name == "." {
		return emptyDir{}, nil
	}
	if r.opened == "" {
		r.opened = name
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
}

// emptyDir is refusingFS's root: a directory with nothing in it.
type emptyDir struct{}

func (emptyDir) Stat() (fs.FileInfo, error) { return emptyDir{}, nil }
func (emptyDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: ".", Err: errors.New("is a directory")}
}
func (emptyDir) Close() error { return nil }
func (emptyDir) ReadDir(n int) ([]fs.DirEntry, error) {
	if n > 0 {
		return nil, io.EOF
	}
	return nil, nil
}
func (emptyDir) Name() string       { return "." }
func (emptyDir) Size() int64        { return 0 }
func (emptyDir) Mode() fs.FileMode  { return fs.ModeDir | 0o500 }
func (emptyDir) ModTime() time.Time { return time.Time{} }
func (emptyDir) IsDir() bool        { return true }
func (emptyDir) Sys() any           { return nil }

// Supported reports whether format is one of Formats.
func Supported(format string) bool {
	for _, f := range Formats {
		if f == format {
			return true
		}
	}
	return false
}

// Render lays out the DOT text dot with the `dot` engine and returns it drawn
// in format ("svg" or "png"). Errors name the format and the engine.
func Render(dot []byte, format string) ([]byte, error) {
	if !Supported(format) {
		return nil, fmt.Errorf("%w %q: want one of svg, png", ErrFormat, format)
	}
	if len(dot) > MaxInput {
		return nil, fmt.Errorf("%w: %d bytes of DOT, the cap is %d", ErrTooLarge, len(dot), MaxInput)
	}
	if !holdsContent(dot) {
		return nil, ErrNoGraph
	}
	mu.Lock()
	defer mu.Unlock()
	noFiles.opened = ""
	out, err := renderLocked(dot, gv.Format(format))
	if noFiles.opened != "" {
		// Whatever Graphviz made of the missing file, the picture is not
		// the one the DOT asks for.
		return nil, fmt.Errorf("%w (%q): aepflow renders no image, shape file or other file named by its input", ErrFileNamed, "/"+noFiles.opened)
	}
	if err != nil {
		return nil, fmt.Errorf("render %s with graphviz %s: %w", format, engine, err)
	}
	return out, nil
}

// renderLocked does the work of Render; the caller holds mu.
func renderLocked(dot []byte, format gv.Format) (out []byte, err error) {
	ctx := context.Background()
	if inst == nil {
		g, err := gv.New(ctx)
		if err != nil {
			return nil, fmt.Errorf("start graphviz: %w", err)
		}
		inst = g
	}
	g := inst
	graph, err := gv.ParseBytes(dot)
	if err != nil {
		return nil, fmt.Errorf("parse DOT: %w", err)
	}
	if graph == nil {
		// Input that holds no graph parses to no graph and no error (or,
		// after an earlier failed parse, to that parse's error again);
		// the library would dereference it. holdsContent catches the
		// usual shapes first.
		return nil, ErrNoGraph
	}
	defer closeInto("close graph", graph.Close, &err)
	if err := checkSize(graph); err != nil {
		return nil, err
	}
	g.SetLayout(engine)
	// PNG is painted from Graphviz's json output (paint.go), not by the
	// library's PNG plugin, which draws wrong pictures.
	graphvizFormat := format
	if format == gv.PNG {
		graphvizFormat = "json"
	}
	var buf bytes.Buffer
	if err := g.Render(ctx, graph, graphvizFormat, &buf); err != nil {
		return nil, fmt.Errorf("layout: %w", err)
	}
	if buf.Len() == 0 {
		return nil, errors.New("graphviz produced no output")
	}
	if format == gv.PNG {
		return paintPNG(buf.Bytes())
	}
	return buf.Bytes(), nil
}

// holdsContent reports whether dot holds anything but white space and
// comments (`//` and `#` to the end of the line, `/* … */`): DOT without
// it holds no graph.
func holdsContent(dot []byte) bool {
	for i := 0; i < len(dot); {
		switch c := dot[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '#' || (c == '/' && i+1 < len(dot) && dot[i+1] == '/'):
			if j := bytes.IndexByte(dot[i:], '\n'); j >= 0 {
				i += j + 1
			} else {
				i = len(dot)
			}
		case c == '/' && i+1 < len(dot) && dot[i+1] == '*':
			j := bytes.Index(dot[i+2:], []byte("*/"))
			if j < 0 {
				return true // an unclosed comment: the parser reports it
			}
			i += j + 4
		default:
			return true
		}
	}
	return false
}

// checkSize refuses graphs over MaxNodes or MaxEdges.
func checkSize(graph *gv.Graph) error {
	nodes, err := graph.NodeNum()
	if err != nil {
		return err
	}
	edges, err := graph.EdgeNum()
	if err != nil {
		return err
	}
	if nodes > MaxNodes || edges > MaxEdges {
		return fmt.Errorf("%w: %d nodes and %d edges, the caps are %d and %d",
			ErrTooLarge, nodes, edges, MaxNodes, MaxEdges)
	}
	return nil
}

// closeInto runs a deferred close, keeping the first error.
func closeInto(what string, close func() error, err *error) {
	if cerr := close(); cerr != nil && *err == nil {
		*err = fmt.Errorf("%s: %w", what, cerr)
	}
}
