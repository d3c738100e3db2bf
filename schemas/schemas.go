// Package schemas embeds the JSON Schemas aepflow publishes for the AEP
// documents it reads, so that editors (yaml-language-server) check a
// document against the same shapes `aepflow validate` enforces.
//
// The schemas describe shape only (keys, types, identifier patterns); the
// rules that need more than one value (a step map's §8.3 rules, a workflow's
// §7 rules) are the loaders'. The flow document's schema lives with package
// flow and is served from there.
package schemas

import (
	"embed"
	"slices"

	"github.com/aepflow/aepflow/flow"
)

//go:embed *.schema.json
var files embed.FS

// owned lists the schemas that live with the package owning the format.
var owned = map[string]func() []byte{
	"flow": flow.Schema,
}

// Names returns every schema name, in byte order.
func Names() []string {
	names := []string{}
	entries, _ := files.ReadDir(".")
	for _, e := range entries {
		names = append(names, e.Name()[:len(e.Name())-len(".schema.json")])
	}
	for n := range owned {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Get returns the schema named name (without `.schema.json`) and whether it
// exists.
func Get(name string) ([]byte, bool) {
	if f, ok := owned[name]; ok {
		return f(), true
	}
	b, err := files.ReadFile(name + ".schema.json")
	return b, err == nil
}
