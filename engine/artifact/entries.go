package artifact

import (
	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/yamldoc"
	yaml "go.yaml.in/yaml/v3"
)

// DeclaredArtifact is an artifact read from a document other than the
// planning store (a simulation scenario's `artifacts`), kept with where it
// was declared so that CheckArtifacts can blame it.
type DeclaredArtifact struct {
	entry
}

// ReadArtifact reads one artifact mapping (`id`, `kind`, `status`,
// `version`, `relations`) with the planning store's rules (engine.md
// §2.4); problems go to r.
func ReadArtifact(r *yamldoc.Reader, n *yaml.Node, path string) DeclaredArtifact {
	m := r.Map(n, path, false)
	e := readArtifact(r, &m, path)
	m.Allow("title", "owner", "tags", "summary")
	m.Done()
	return DeclaredArtifact{e}
}

// CheckArtifacts applies the store's graph rules (duplicate ids, dangling
// relations, self relations, cycles) to artifacts gathered from several
// documents and builds the graph; the graph is nil whenever the list holds
// errors.
func CheckArtifacts(arts []DeclaredArtifact) (*Graph, diag.List) {
	entries := make([]entry, len(arts))
	for i, a := range arts {
		entries[i] = a.entry
	}
	return finish(entries, nil)
}
