package tree

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/stepmap"
)

const codesDoc = "../docs/codes-documents.md"

var (
	fileFence   = regexp.MustCompile("^```(yaml|json) file=(\\S+)$")
	selectFence = regexp.MustCompile("^```text select=(\\S+)$")
	pickFence   = regexp.MustCompile("^```text pick=(\\S+)/([0-9]+)$")
)

// section is one `## code` section of the codes page: its input files, an
// optional --map selection, and the exact expected output block.
type section struct {
	code      string
	files     map[string]string
	order     []string
	selectArg string
	// pickID and pickVersion, when set, run the driver's pick of a map for
	// that workflow (stepmap.Pick) instead of reporting the tree.
	pickID      string
	pickVersion uint32
	outStart    int // line index of the first output line
	outEnd      int // line index of the closing fence
	want        string
}

func parseSections(t *testing.T, lines []string) []*section {
	var out []*section
	var cur *section
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "## "):
			cur = &section{code: strings.Trim(strings.TrimPrefix(l, "## "), "`"), files: map[string]string{}}
			out = append(out, cur)
		case cur != nil && fileFence.MatchString(l):
			name := fileFence.FindStringSubmatch(l)[2]
			j := i + 1
			for ; j < len(lines) && lines[j] != "```"; j++ {
			}
			cur.files[name] = strings.Join(lines[i+1:j], "\n") + "\n"
			cur.order = append(cur.order, name)
			i = j
		case cur != nil && (l == "```text" || selectFence.MatchString(l) || pickFence.MatchString(l)):
			if m := selectFence.FindStringSubmatch(l); m != nil {
				cur.selectArg = m[1]
			}
			if m := pickFence.FindStringSubmatch(l); m != nil {
				v, _ := strconv.ParseUint(m[2], 10, 32)
				cur.pickID, cur.pickVersion = m[1], uint32(v)
			}
			j := i + 1
			for ; j < len(lines) && lines[j] != "```"; j++ {
			}
			cur.outStart, cur.outEnd = i+1, j
			cur.want = strings.Join(lines[i+1:j], "\n") + "\n"
			i = j
		}
	}
	return out
}

// run reproduces what `aepflow validate` prints for the section's files:
// tree mode when a file sits in a tree directory, else file mode.
func (s *section) run(t *testing.T) string {
	dir := t.TempDir()
	treeMode := false
	for _, name := range s.order {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(s.files[name]), 0o644); err != nil {
			t.Fatal(err)
		}
		if kindFromPath(name) != "" && strings.Contains(name, "/") {
			treeMode = true
		}
	}
	t.Chdir(dir)
	var diags diag.List
	sources := diag.Sources{}
	if treeMode {
		tr, ds := Load(".")
		ds.Extend(tr.RequireDocuments())
		diags, sources = ds, tr.Sources
		if s.selectArg != "" {
			_, ds := stepmap.Select(s.selectArg, tr.StepMapList(), os.ReadFile)
			diags = ds
		}
		if s.pickID != "" {
			diags = nil
			if _, err := stepmap.Pick(tr.StepMapList(), s.pickID, s.pickVersion); err != nil {
				var d diag.Diagnostic
				if !errors.As(err, &d) {
					t.Fatalf("Pick's error is not a diagnostic: %v", err)
				}
				diags = diag.List{d}
			}
		}
	} else {
		for _, name := range s.order {
			data := []byte(s.files[name])
			sources[name] = data
			_, ds := LoadDocument(name, data, "")
			for i := range ds {
				if ds[i].Code == CodeUnknownKind {
					// as `aepflow validate FILE` prints it, with its flag
					ds[i].Hint += "; " + NameKindHint("--kind")
				}
			}
			diags.Extend(ds)
		}
	}
	var b bytes.Buffer
	if err := diag.WriteText(&b, diags.Sorted(), sources); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestCodesDocument checks every example of docs/codes-documents.md: the
// input must produce exactly the printed output, and must be refused with
// the section's code. -update rewrites the output blocks.
func TestCodesDocument(t *testing.T) {
	data, err := os.ReadFile(codesDoc)
	if err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(codesDoc)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	sections := parseSections(t, lines)
	if len(sections) < 20 {
		t.Fatalf("only %d sections", len(sections))
	}
	outputs := map[*section]string{}
	for _, s := range sections {
		t.Run(s.code, func(t *testing.T) {
			if len(s.files) == 0 {
				t.Fatalf("section %s has no input", s.code)
			}
			got := s.run(t)
			outputs[s] = got
			if !strings.Contains(got, "["+s.code+"]") {
				t.Errorf("the example does not produce %s:\n%s", s.code, got)
			}
			if !*update && got != s.want {
				t.Errorf("output differs\ngot:\n%s\nwant:\n%s", got, s.want)
			}
		})
	}
	if *update {
		for i := len(sections) - 1; i >= 0; i-- {
			s := sections[i]
			repl := strings.Split(strings.TrimSuffix(outputs[s], "\n"), "\n")
			lines = append(lines[:s.outStart], append(repl, lines[s.outEnd:]...)...)
		}
		if err := os.WriteFile(abs, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
