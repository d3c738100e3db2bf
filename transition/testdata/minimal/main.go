// Command minimal is the benchmark's baseline for `aepflow drive
// transition`: a process that reads the same stdin document and parses the
// same documents (project.yaml, the task, the four tree directories, the
// planning store and the run's snapshot) with go.yaml.in/yaml/v3, and
// decides nothing. Usage: minimal PROJECT TREE RUN_DIR < stdin.json
package main

import (
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	yaml "go.yaml.in/yaml/v3"
)

func main() {
	data, err := io.ReadAll(os.Stdin)
	if err != nil {
		os.Exit(1)
	}
	var in map[string]any
	if json.Unmarshal(data, &in) != nil {
		os.Exit(1)
	}
	project, tree, run := os.Args[1], os.Args[2], os.Args[3]
	eng := filepath.Join(project, ".engineering")
	files := []string{filepath.Join(eng, "project.yaml"), filepath.Join(eng, "task.yaml")}
	for _, dir := range []string{"protocols", "principles", "workflows", "profiles"} {
		files = append(files, walk(filepath.Join(tree, dir), ".yaml")...)
	}
	files = append(files, walk(filepath.Join(eng, "planning"), ".md")...)
	files = append(files, filepath.Join(run, "state.json"), filepath.Join(run, "generations", "1", "manifest.json"),
		filepath.Join(run, "generations", "1", "snapshot.json"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			os.Exit(1)
		}
		var n yaml.Node
		_ = yaml.Unmarshal(b, &n) // planning files parse as far as their front matter
	}
}

func walk(dir, ext string) []string {
	var out []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(p) == ext {
			out = append(out, p)
		}
		return nil
	})
	return out
}
