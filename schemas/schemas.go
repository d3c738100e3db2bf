// Package schemas embeds the JSON Schemas aepflow publishes for the AEP
// documents it reads, so that editors (yaml-language-server) check a
// document against the same shapes `aepflow validate` enforces.
//
// The schemas describe shape only (keys, types, identifier patterns); the
// rules that need more than one value (a step map's §8.3 rules, a workflow's
// §7 rules) are the loaders'. Other packages add their own schema with
// Register (package flow adds `flow`).
package schemas

import (
	"embed"
	"slices"
	"sync"
)

//go:embed *.schema.json
var files embed.FS

var (
	mu    sync.Mutex
	extra = map[string][]byte{}
)

// Register adds (or replaces) a schema under name, for schemas that live
// with the package owning the format.
func Register(name string, schema []byte) {
	mu.Lock()
	defer mu.Unlock()
	extra[name] = schema
}

// Names returns every schema name, in byte order.
func Names() []string {
	mu.Lock()
	defer mu.Unlock()
	names := []string{}
	entries, _ := files.ReadDir(".")
	for _, e := range entries {
		names = append(names, e.Name()[:len(e.Name())-len(".schema.json")])
	}
	for n := range extra {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}

// Get returns the schema named name (without `.schema.json`) and whether it
// exists.
func Get(name string) ([]byte, bool) {
	mu.Lock()
	defer mu.Unlock()
	if b, ok := extra[name]; ok {
		return b, true
	}
	b, err := files.ReadFile(name + ".schema.json")
	return b, err == nil
}
