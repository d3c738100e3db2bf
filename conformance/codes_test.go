package conformance

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The code pages whose examples are commands (docs/codes-engine.md,
// docs/codes-commands.md) are checked here, with the built binaries: each
// `## code` section writes its files, runs its setup and its command in an
// empty work directory, and must print exactly the section's output block
// and exit as its command fence says. -update rewrites the output blocks.
//
// A section reads:
//
// Files given before the first section are written for every section,
// before the section's own (which replace one of the same path).
//
//	## `code`
//
//	What the code means (the first paragraph is the SARIF description).
//
//	```yaml file=tree/workflows/w.yaml       one block per file to write
//	…
//	```
//
//	```sh setup requires=git                   optional; its output is ignored
//	git init -q .
//	```
//
//	```sh exit=1                               the command, run with sh -c
//	aepflow validate --root tree
//	```
//
//	```text                                    stdout, then stderr
//	…
//	```

func init() {
	register(
		Case{Name: "codes/engine", Check: codePage("codes-engine.md")},
		Case{Name: "codes/commands", Check: codePage("codes-commands.md")},
	)
}

// codeSection is one section of a command code page.
type codeSection struct {
	code     string
	files    []codeFile
	setup    string
	requires []string
	command  string
	exit     int
	// outStart and outEnd are the line indexes of the output block's
	// first line and of its closing fence.
	outStart, outEnd int
	want             string
}

type codeFile struct{ path, body string }

var (
	codeHeading  = regexp.MustCompile("^## `([A-Za-z0-9_-]+)`$")
	fileFence    = regexp.MustCompile("^```[a-z]+ file=(\\S+)$")
	setupFence   = regexp.MustCompile("^```sh setup(?: requires=(\\S+))?$")
	commandFence = regexp.MustCompile("^```sh(?: exit=([0-9]+))?$")
)

// parseCodePage reads the sections of a command code page.
func parseCodePage(t *testing.T, lines []string) []*codeSection {
	var out []*codeSection
	var cur *codeSection
	var common []codeFile
	block := func(i int) (string, int) {
		j := i + 1
		for j < len(lines) && lines[j] != "```" {
			j++
		}
		if j == len(lines) {
			t.Fatalf("line %d: a block that never closes", i+1)
		}
		return strings.Join(lines[i+1:j], "\n") + "\n", j
	}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if m := codeHeading.FindStringSubmatch(l); m != nil {
			cur = &codeSection{code: m[1], outStart: -1, files: slices.Clone(common)}
			out = append(out, cur)
			continue
		}
		if !strings.HasPrefix(l, "```") {
			continue
		}
		body, end := block(i)
		if cur == nil {
			// A file before the first section is every section's.
			if m := fileFence.FindStringSubmatch(l); m != nil {
				common = append(common, codeFile{m[1], body})
			}
			i = end
			continue
		}
		switch m := []string(nil); {
		case fileFence.MatchString(l):
			cur.files = append(cur.files, codeFile{fileFence.FindStringSubmatch(l)[1], body})
		case setupFence.MatchString(l):
			m = setupFence.FindStringSubmatch(l)
			cur.setup = body
			if m[1] != "" {
				cur.requires = strings.Split(m[1], ",")
			}
		case commandFence.MatchString(l):
			m = commandFence.FindStringSubmatch(l)
			cur.command = strings.TrimSuffix(body, "\n")
			if m[1] != "" {
				cur.exit, _ = strconv.Atoi(m[1])
			}
		case l == "```text":
			cur.outStart, cur.outEnd, cur.want = i+1, end, body
		}
		i = end
	}
	return out
}

// codePage returns the check of one command code page.
func codePage(page string) func(t *testing.T, e *Env) {
	return func(t *testing.T, e *Env) {
		path := filepath.Join("..", "docs", page)
		lines := strings.Split(strings.TrimSuffix(string(readFile(t, path)), "\n"), "\n")
		sections := parseCodePage(t, lines)
		if len(sections) == 0 {
			t.Fatalf("%s has no code section", page)
		}
		outputs := map[*codeSection]string{}
		for _, s := range sections {
			t.Run(s.code, func(t *testing.T) {
				if s.command == "" || s.outStart < 0 {
					t.Fatalf("section %s has no command or no output block", s.code)
				}
				for _, tool := range s.requires {
					if _, err := exec.LookPath(tool); err != nil {
						t.Skipf("%s is not on PATH", tool)
					}
				}
				got := s.run(t, e)
				outputs[s] = got
				if !strings.Contains(got, "["+s.code+"]") && !strings.Contains(got, `"code": "`+s.code+`"`) {
					t.Errorf("the example does not report %s:\n%s", s.code, got)
				}
				if !*update && got != s.want {
					t.Errorf("output differs\n--- got\n%s--- documented\n%s", got, s.want)
				}
			})
		}
		if !*update {
			return
		}
		for i := len(sections) - 1; i >= 0; i-- {
			s := sections[i]
			got, ok := outputs[s]
			if !ok {
				continue
			}
			repl := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
			lines = append(lines[:s.outStart], append(repl, lines[s.outEnd:]...)...)
		}
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// run writes the section's files in a fresh directory, runs its setup,
// then its command, and returns stdout followed by stderr, the paths of
// the environment folded into their $-names.
func (s *codeSection) run(t *testing.T, e *Env) string {
	dir := t.TempDir()
	for _, f := range s.files {
		p := filepath.Join(dir, filepath.FromSlash(f.path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f.body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"PATH=" + e.Bin + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + dir,
		"GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_AUTHOR_DATE=2026-01-01T00:00:00Z",
		"GIT_COMMITTER_DATE=2026-01-01T00:00:00Z"}
	sh := func(script string) (string, string, int) {
		cmd := exec.Command("sh", "-c", script)
		cmd.Dir, cmd.Env = dir, env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		code := 0
		switch {
		case errors.As(err, &exit):
			code = exit.ExitCode()
		case err != nil:
			t.Fatal(err)
		}
		return stdout.String(), stderr.String(), code
	}
	if s.setup != "" {
		if out, errOut, code := sh(s.setup); code != 0 {
			t.Fatalf("the setup failed (exit %d):\n%s%s", code, out, errOut)
		}
	}
	stdout, stderr, code := sh(s.command)
	if code != s.exit {
		t.Errorf("exit %d, want %d (the command fence says)", code, s.exit)
	}
	fold := &Env{Shared: e.Shared, Testdata: e.Testdata, Bin: e.Bin, Work: dir}
	return fold.Fold(stdout + stderr)
}
