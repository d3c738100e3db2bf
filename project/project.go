package project

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/aepflow/aepflow/internal/diagline"
	"github.com/aepflow/aepflow/internal/fsio"
	"github.com/aepflow/aepflow/yamldoc"
	yaml "go.yaml.in/yaml/v3"
)

// ProjectVersion is the only project.yaml version ReadProject accepts.
const ProjectVersion = "aep.project/5"

// DefaultEngineeringDir is the name of a project's engineering directory
// unless AEP_PROJECT_DIR names another.
const DefaultEngineeringDir = ".engineering"

// maxDiscoveryLevels bounds project discovery: the start directory and its
// ancestors, this many directories at most.
const maxDiscoveryLevels = 12

// Project is a discovered project and the locations its project.yaml
// names (engine.md §7.1). Paths are as joined, not made absolute.
type Project struct {
	// Dir holds the engineering directory.
	Dir string
	// Eng is the engineering directory (`<Dir>/.engineering`).
	Eng string
	// Root is the document tree (`protocols`, default `..` of Eng).
	Root string
	// RootErr is why the project's tree cannot be used (a git source, an
	// absolute path); it matters only without --root.
	RootErr error
	// Task is the default task document.
	Task string
	// Store is the planning store; StoreErr is why it cannot be read (an
	// sqlite or postgres store), which matters only without --store.
	Store    string
	StoreErr error
	// Principles and Profiles are the project-local document directories.
	Principles, Profiles string
}

// Runs returns the project's runs directory.
func (p *Project) Runs() string { return filepath.Join(p.Eng, "runs") }

// EngineeringDirName returns the engineering directory name: the value of
// AEP_PROJECT_DIR when set and not blank, else `.engineering`. It must be a
// single path element.
func EngineeringDirName(getenv func(string) string) (string, error) {
	name := strings.TrimSpace(getenv("AEP_PROJECT_DIR"))
	if name == "" {
		return DefaultEngineeringDir, nil
	}
	if name == "." || name == ".." || strings.ContainsAny(name, `/\`) {
		return "", fmt.Errorf("AEP_PROJECT_DIR %q is not a directory name", name)
	}
	return name, nil
}

// FindProject returns the directory holding `<eng>/project.yaml`: dir
// itself when explicit, else the first of start and its ancestors
// (maxDiscoveryLevels at most).
func FindProject(dir string, explicit bool, eng string) (string, error) {
	if explicit {
		if _, err := os.Stat(filepath.Join(dir, eng, "project.yaml")); err != nil {
			return "", fmt.Errorf("no project at %s: %s is missing", dir, filepath.Join(eng, "project.yaml"))
		}
		return dir, nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("no project: %v", err)
	}
	for d, i := abs, 0; i < maxDiscoveryLevels; i++ {
		if st, err := os.Stat(filepath.Join(d, eng, "project.yaml")); err == nil && !st.IsDir() {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return "", fmt.Errorf("no project found from %s: no %s in it or its parents", abs, filepath.Join(eng, "project.yaml"))
}

// ReadProject reads `<dir>/<eng>/project.yaml`. Only the keys of engine.md
// §7.1 are read; others are ignored. A wrong version or a malformed used key
// is an error; a tree or store that cannot be read here is recorded in
// RootErr or StoreErr, since a caller's --root or --store may replace it.
func ReadProject(dir, eng string) (*Project, error) {
	p := &Project{Dir: dir, Eng: filepath.Join(dir, eng)}
	file := filepath.Join(p.Eng, "project.yaml")
	data, err := fsio.ReadFile(file, yamldoc.MaxFileSize)
	if err != nil {
		return nil, fmt.Errorf("cannot read the project: %v", err)
	}
	doc, diags := yamldoc.Parse(file, data)
	if diags.HasErrors() {
		return nil, fmt.Errorf("cannot read the project: %s", diagline.Join(diags))
	}
	if doc == nil || doc.Root == nil || doc.Root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: the project document is not a mapping", file)
	}
	r := yamldoc.NewReader(doc, &diags)
	m := r.Map(doc.Root, "", false)
	version, _ := r.String(m.Require("version"), "version")
	if diags.HasErrors() {
		return nil, fmt.Errorf("cannot read the project: %s", diagline.Join(diags))
	}
	if version != ProjectVersion {
		return nil, fmt.Errorf("%s: project version %q is not supported, expected %q", file, version, ProjectVersion)
	}
	str := func(key, def string) string {
		if n := m.Get(key); n != nil {
			s, _ := r.String(n, key)
			return s
		}
		return def
	}
	protocols := str("protocols", "..")
	task := str("task", "task.yaml")
	p.Principles = p.local(str("principles", "principles"))
	p.Profiles = p.local(str("profiles", "profiles"))
	if diags.HasErrors() {
		return nil, fmt.Errorf("cannot read the project: %s", diagline.Join(diags))
	}
	p.Root, p.RootErr = p.treePath(file, protocols)
	p.Task = p.local(task)
	p.Store = filepath.Join(p.Eng, "planning")
	p.StoreErr = storeKind(file, m.Get("store"))
	return p, nil
}

// local resolves a path relative to the engineering directory.
func (p *Project) local(s string) string {
	if filepath.IsAbs(s) {
		return s
	}
	return filepath.Join(p.Eng, filepath.FromSlash(s))
}

// treePath resolves the `protocols` source: relative paths only.
func (p *Project) treePath(file, s string) (string, error) {
	switch {
	case strings.HasPrefix(s, "git+"):
		return "", fmt.Errorf("%s: protocol source %q is a git source, which this verb does not fetch; give --root", file, s)
	case s == "" || strings.HasPrefix(s, "~") || filepath.IsAbs(s):
		return "", fmt.Errorf("%s: protocol source %q must be a path relative to %s", file, s, p.Eng)
	}
	return filepath.Join(p.Eng, filepath.FromSlash(s)), nil
}

// storeKind accepts an absent store or a `{git: …}` one (the markdown
// planning store); sqlite and postgres stores need --store.
func storeKind(file string, n *yaml.Node) error {
	if n == nil || yamldoc.IsNull(n) {
		return nil
	}
	kind := ""
	switch n.Kind {
	case yaml.ScalarNode:
		kind = n.Value
	case yaml.MappingNode:
		if len(n.Content) == 2 {
			kind = n.Content[0].Value
		}
	}
	if kind == "git" {
		return nil
	}
	if kind == "" {
		return fmt.Errorf("%s: the `store` key is not a store this verb knows; give --store", file)
	}
	return fmt.Errorf("%s: store kind %q is not read by this verb; give --store", file, kind)
}

// Open finds and reads a project (engine.md §7.1): the engineering
// directory is named by AEP_PROJECT_DIR as getenv reads it; the project is
// dir itself when explicit, else discovered from dir upward. Every error is
// one line naming what is missing or wrong.
func Open(dir string, explicit bool, getenv func(string) string) (*Project, error) {
	eng, err := EngineeringDirName(getenv)
	if err != nil {
		return nil, err
	}
	found, err := FindProject(dir, explicit, eng)
	if err != nil {
		return nil, err
	}
	return ReadProject(found, eng)
}
