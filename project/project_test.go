package project_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/project"
	"github.com/aepflow/aepflow/project/projecttest"
)

// discoveryLevels is how many directories discovery looks at: the start
// and its parents, 12 in all (engine.md §7.1).
const discoveryLevels = 12

func TestEngineeringDirName(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k != "AEP_PROJECT_DIR" {
				t.Errorf("read %s", k)
			}
			return v
		}
	}
	for v, want := range map[string]string{"": ".engineering", "  ": ".engineering", ".eng2": ".eng2", " eng ": "eng"} {
		if got, err := project.EngineeringDirName(env(v)); err != nil || got != want {
			t.Errorf("AEP_PROJECT_DIR=%q: %q, %v; want %q", v, got, err, want)
		}
	}
	for _, v := range []string{".", "..", "a/b", `a\b`, "/abs"} {
		if got, err := project.EngineeringDirName(env(v)); err == nil || !strings.Contains(err.Error(), "AEP_PROJECT_DIR") {
			t.Errorf("AEP_PROJECT_DIR=%q: %q, %v; want an error", v, got, err)
		}
	}
}

// TestFindProject: discovery climbs at most discoveryLevels directories;
// an explicit directory is taken as it is or refused.
func TestFindProject(t *testing.T) {
	base := t.TempDir()
	projecttest.WriteFile(t, filepath.Join(base, ".engineering", "project.yaml"), []byte("version: aep.project/5\n"))
	deep := base
	for i := 1; i < discoveryLevels; i++ {
		deep = filepath.Join(deep, "d")
	}
	if err := os.MkdirAll(filepath.Join(deep, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	before := projecttest.TreeHash(t, base)
	if got, err := project.FindProject(deep, false, ".engineering"); err != nil || got != base {
		t.Errorf("from %d levels below: %q, %v; want %q", discoveryLevels-1, got, err, base)
	}
	if got, err := project.FindProject(filepath.Join(deep, "d"), false, ".engineering"); err == nil || !strings.Contains(err.Error(), "no project found") {
		t.Errorf("from %d levels below: %q, %v; want no project", discoveryLevels, got, err)
	}
	if got, err := project.FindProject(deep, false, ".eng2"); err == nil || !strings.Contains(err.Error(), ".eng2") {
		t.Errorf("another engineering directory: %q, %v", got, err)
	}
	if got, err := project.FindProject(base, true, ".engineering"); err != nil || got != base {
		t.Errorf("explicit: %q, %v", got, err)
	}
	if got, err := project.FindProject(deep, true, ".engineering"); err == nil || !strings.Contains(err.Error(), "no project at") {
		t.Errorf("explicit without a project: %q, %v", got, err)
	}
	if projecttest.TreeHash(t, base) != before {
		t.Error("FindProject changed the tree")
	}
}

// TestReadProject reads testdata/project, whose yaml sets every key.
func TestReadProject(t *testing.T) {
	dir := filepath.Join("testdata", "project")
	p, err := project.ReadProject(dir, ".engineering")
	if err != nil {
		t.Fatal(err)
	}
	eng := filepath.Join(dir, ".engineering")
	want := project.Project{Dir: dir, Eng: eng, Root: filepath.Join(dir, "tree"), Task: filepath.Join(eng, "tasks", "current.yaml"),
		Store: filepath.Join(eng, "planning"), Principles: filepath.Join(eng, "local", "principles"), Profiles: "/abs/profiles"}
	if p.RootErr != nil || p.StoreErr != nil {
		t.Errorf("RootErr %v, StoreErr %v", p.RootErr, p.StoreErr)
	}
	p.RootErr, p.StoreErr = nil, nil
	if *p != want {
		t.Errorf("ReadProject =\n%+v\nwant\n%+v", *p, want)
	}
	if p.Runs() != filepath.Join(eng, "runs") {
		t.Errorf("Runs = %q", p.Runs())
	}
}

func TestReadProjectDefaults(t *testing.T) {
	dir := t.TempDir()
	projecttest.WriteFile(t, filepath.Join(dir, ".e", "project.yaml"), []byte("version: aep.project/5\n"))
	p, err := project.ReadProject(dir, ".e")
	if err != nil {
		t.Fatal(err)
	}
	eng := filepath.Join(dir, ".e")
	if p.Root != dir || p.Task != filepath.Join(eng, "task.yaml") || p.Principles != filepath.Join(eng, "principles") ||
		p.Profiles != filepath.Join(eng, "profiles") || p.RootErr != nil || p.StoreErr != nil {
		t.Errorf("defaults: %+v", p)
	}
}

// TestReadProjectRefusals: errors refuse the project; a tree or store it
// cannot use is only recorded.
func TestReadProjectRefusals(t *testing.T) {
	cases := map[string]struct{ yaml, err, rootErr, storeErr string }{
		"version":   {yaml: "version: aep.project/4\n", err: "aep.project/4"},
		"noversion": {yaml: "protocols: ..\n", err: "version"},
		"broken":    {yaml: "version: [\n", err: "cannot read the project"},
		"list":      {yaml: "- version\n", err: "not a mapping"},
		"empty":     {yaml: "", err: "not a mapping"},
		"task":      {yaml: "version: aep.project/5\ntask: [a]\n", err: "cannot read the project"},
		"git":       {yaml: "version: aep.project/5\nprotocols: git+https://x/y#abc\n", rootErr: "git source"},
		"absolute":  {yaml: "version: aep.project/5\nprotocols: /etc\n", rootErr: "relative"},
		"home":      {yaml: "version: aep.project/5\nprotocols: ~/tree\n", rootErr: "relative"},
		"sqlite":    {yaml: "version: aep.project/5\nstore: {sqlite: x.db}\n", storeErr: "sqlite"},
		"postgres":  {yaml: "version: aep.project/5\nstore: postgres\n", storeErr: "postgres"},
		"store":     {yaml: "version: aep.project/5\nstore: [git]\n", storeErr: "not a store"},
		"gitstore":  {yaml: "version: aep.project/5\nstore: git\n"},
		"null":      {yaml: "version: aep.project/5\nstore: null\n"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			projecttest.WriteFile(t, filepath.Join(dir, ".engineering", "project.yaml"), []byte(c.yaml))
			p, err := project.ReadProject(dir, ".engineering")
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) || strings.ContainsAny(err.Error(), "\r\n") {
					t.Errorf("err = %v, want one line with %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			expect := func(what string, got error, want string) {
				if (want == "") != (got == nil) || (got != nil && !strings.Contains(got.Error(), want)) {
					t.Errorf("%s = %v, want %q", what, got, want)
				}
			}
			expect("RootErr", p.RootErr, c.rootErr)
			expect("StoreErr", p.StoreErr, c.storeErr)
		})
	}
	if _, err := project.ReadProject(t.TempDir(), ".engineering"); err == nil || !strings.Contains(err.Error(), "cannot read the project") {
		t.Errorf("no yaml: %v", err)
	}
}

// TestOpen: AEP_PROJECT_DIR, discovery and project.yaml in one call, each
// failure passed on.
func TestOpen(t *testing.T) {
	base := t.TempDir()
	projecttest.WriteFile(t, filepath.Join(base, ".eng2", "project.yaml"), []byte("version: aep.project/5\n"))
	sub := filepath.Join(base, "a")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	env := func(v string) func(string) string { return func(string) string { return v } }
	p, err := project.Open(sub, false, env(".eng2"))
	if err != nil || p.Dir != base || p.Eng != filepath.Join(base, ".eng2") {
		t.Errorf("Open = %+v, %v", p, err)
	}
	if p, err := project.Open(base, true, env(".eng2")); err != nil || p.Dir != base {
		t.Errorf("explicit: %+v, %v", p, err)
	}
	for name, c := range map[string]struct {
		dir, env, want string
		explicit       bool
	}{
		"env":       {dir: sub, env: "a/b", want: "AEP_PROJECT_DIR"},
		"discovery": {dir: sub, env: "", want: "no project found"},
		"explicit":  {dir: sub, env: ".eng2", explicit: true, want: "no project at"},
	} {
		if p, err := project.Open(c.dir, c.explicit, env(c.env)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %+v, %v; want an error with %q", name, p, err, c.want)
		}
	}
	projecttest.WriteFile(t, filepath.Join(base, ".eng2", "project.yaml"), []byte("version: aep.project/1\n"))
	if p, err := project.Open(sub, false, env(".eng2")); err == nil || !strings.Contains(err.Error(), "aep.project/1") {
		t.Errorf("old version: %+v, %v", p, err)
	}
}
