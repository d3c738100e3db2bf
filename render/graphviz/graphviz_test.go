package graphviz

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/aepflow/aepflow/internal/fsio"
	"github.com/aepflow/aepflow/internal/testkit"
)

const small = `digraph "t" {
  graph [rankdir=TB];
  node [shape=box, style=rounded];
  "__initial" [shape=point, label=""];
  "a" [label="A"];
  "b" [label="B \"quoted\"", shape=doublecircle];
  "__initial" -> "a";
  "a" -> "b" [label="x > 0"];
  "b" -> "a" [style=dashed, constraint=false];
}
`

func TestRenderSVG(t *testing.T) {
	svg, err := Render([]byte(small), "svg")
	if err != nil {
		t.Fatal(err)
	}
	nodes := testkit.SVGTitles(t, svg, "node")
	if got := strings.Join(nodes, ","); got != "__initial,a,b" {
		t.Errorf("node titles = %q, want __initial,a,b", got)
	}
	if edges := testkit.SVGTitles(t, svg, "edge"); len(edges) != 3 {
		t.Errorf("edge groups = %q, want 3", edges)
	}
}

func TestRenderPNG(t *testing.T) {
	out, err := Render([]byte(small), "png")
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(out))
	if err != nil {
		t.Fatalf("png does not decode: %v", err)
	}
	// The library's own PNG plugin filled edge curves into black blobs and
	// hid node outlines: a line drawing is mostly white with some ink.
	dark, all := 0, 0
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r+g+bl < 3*0x8000 {
				dark++
			}
			all++
		}
	}
	if ink := float64(dark) / float64(all); ink < 0.005 || ink > 0.15 {
		t.Errorf("%.1f%% of the pixels are dark, want a line drawing (0.5–15%%)", 100*ink)
	}
	b := img.Bounds()
	if b.Dx() < 50 || b.Dy() < 100 || b.Dx() > 2000 || b.Dy() > 2000 {
		t.Errorf("png is %dx%d, want a sensible size", b.Dx(), b.Dy())
	}
}

// TestUnsupportedFormatThenValid checks that a refused format never reaches
// the library: the library's own failure would break the next call too.
func TestUnsupportedFormatThenValid(t *testing.T) {
	for _, f := range []string{"jpg", "dot", "", "SVG", "xdot"} {
		if _, err := Render([]byte(small), f); !errors.Is(err, ErrFormat) {
			t.Errorf("Render(%q) error = %v, want ErrFormat", f, err)
		}
	}
	if _, err := Render([]byte(small), "svg"); err != nil {
		t.Fatalf("render after a refusal: %v", err)
	}
}

func TestBadDOT(t *testing.T) {
	_, err := Render([]byte("digraph { a -> }"), "svg")
	if err == nil {
		t.Fatal("want an error for bad DOT")
	}
	if !strings.Contains(err.Error(), "svg") || !strings.Contains(err.Error(), "dot") {
		t.Errorf("error %q should name the format and the engine", err)
	}
	// Graphviz keeps the last syntax error for the life of the process;
	// later renders must not report it again.
	for i := 0; i < 3; i++ {
		if _, err := Render([]byte(small), "svg"); err != nil {
			t.Fatalf("render %d after a parse failure: %v", i, err)
		}
	}
}

func TestTooLarge(t *testing.T) {
	var b strings.Builder
	b.WriteString("digraph g {\n")
	for i := 0; i <= MaxNodes; i++ {
		fmt.Fprintf(&b, "  n%d;\n", i)
	}
	b.WriteString("}\n")
	if _, err := Render([]byte(b.String()), "svg"); !errors.Is(err, ErrTooLarge) {
		t.Errorf("too many nodes: error = %v, want ErrTooLarge", err)
	}
	huge := bytes.Repeat([]byte(" "), MaxInput+1)
	if _, err := Render(huge, "svg"); !errors.Is(err, ErrTooLarge) {
		t.Errorf("too many bytes: error = %v, want ErrTooLarge", err)
	}
}

// TestParallel checks, under -race, that concurrent callers are serialised.
func TestParallel(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			f := Formats[i%2]
			if _, err := Render([]byte(small), f); err != nil {
				errs <- err
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestNoGraph: empty, blank and comment-only input is a clear refusal, not
// a nil dereference inside the library.
func TestNoGraph(t *testing.T) {
	// A syntax error first: the library then reports it again for input
	// that holds no graph, which must still be refused as such.
	if _, err := Render([]byte("digraph { a -> }"), "svg"); err == nil {
		t.Fatal("a syntax error was accepted")
	}
	for _, in := range []string{"", " \n\t", "// only a comment\n", "/* block */", "# preprocessor line\n", "// a\n  /* b\n */ # c"} {
		for _, format := range Formats {
			if _, err := Render([]byte(in), format); !errors.Is(err, ErrNoGraph) {
				t.Errorf("Render(%q, %s) = %v; want ErrNoGraph", in, format, err)
			}
		}
	}
	if _, err := Render([]byte(small), "svg"); err != nil {
		t.Errorf("a render after the refusals failed: %v", err)
	}
}

// FuzzHoldsContent checks the scan that refuses input holding no graph
// before the library sees it: it never panics, white space and a trailing
// comment never change its answer, and text starting with a graph keyword
// always holds content. Seeds: the shapes that crashed the companion.
func FuzzHoldsContent(f *testing.F) {
	for _, s := range []string{"", " ", "\n\t", "// c\n", "/* c */", "# line\n", "/* open", "/", "digraph{}", small} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := holdsContent([]byte(s))
		if !strings.Contains(s, "/*") {
			if again := holdsContent([]byte(" \n" + s + "\n// trailing\n")); again != got {
				t.Errorf("holdsContent(%q) = %v, but %v with white space and a comment around it", s, got, again)
			}
		}
		if !holdsContent([]byte("digraph" + s)) {
			t.Errorf("holdsContent(digraph%q) = false", s)
		}
	})
}

// TestSecurityBounds checks the companion's rows of docs/security.md's
// Bounds table against this package's constants.
func TestSecurityBounds(t *testing.T) {
	rows := testkit.TableRows(t, "../../docs/security.md", "## Bounds")
	for first, want := range map[string]string{
		"DOT text on the companion's stdin": fsio.FormatSize(MaxInput),
		"a graph the companion lays out":    fmt.Sprintf("%d nodes, %d edges", MaxNodes, MaxEdges),
		"a PNG picture":                     fmt.Sprintf("%d pixels", maxPNGPixels),
	} {
		if row, ok := rows[first]; !ok || row[1] != want {
			t.Errorf("row %q: %v; the code says %q", first, row, want)
		}
	}
}

// TestNoFileNamedByTheInput checks that DOT naming a local file (an image,
// a shape file, a directory to look them up in, an HTML <IMG>) is refused
// and the file is never opened: Graphviz reads an image's header to size
// its node, which tells the picture what the file holds, and go-graphviz
// mounts the whole host filesystem (relative to the working directory).
func TestNoFileNamedByTheInput(t *testing.T) {
	dir := t.TempDir()
	img := filepath.Join(dir, "secret.png")
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, 300, 200))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(img, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for _, dot := range []string{
		`digraph { a [image="` + img + `", label=""] }`,
		`digraph { a [image="secret.png", label=""] }`,
		`digraph { imagepath="` + dir + `"; a [image="secret.png"] }`,
		`digraph { a [shape=custom, shapefile="` + img + `"] }`,
		`digraph { a [shape=epsf, shapefile="secret.png"] }`,
		`digraph { a [label=<<TABLE><TR><TD><IMG SRC="secret.png"/></TD></TR></TABLE>>] }`,
	} {
		for _, format := range Formats {
			out, err := Render([]byte(dot), format)
			if err == nil || !strings.Contains(err.Error(), "names a file") {
				t.Errorf("%s to %s: error %v, want the DOT refused for naming a file", dot, format, err)
			}
			if out != nil {
				t.Errorf("%s to %s: a picture came out (%d bytes)", dot, format, len(out))
			}
		}
	}
	// The refusal does not linger: the next render is drawn.
	if _, err := Render([]byte(small), "svg"); err != nil {
		t.Fatalf("render after a refused file: %v", err)
	}
}
