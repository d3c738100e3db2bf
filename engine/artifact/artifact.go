// Package artifact is the engine's artifact graph (engine.md §2.4): the
// artifact kinds with their aliases and one-step lineage, the statuses and
// their classes, the planning store (markdown files with YAML front matter)
// and the artifact manifest that both build a Graph, and the artifact-graph
// facts a Graph projects.
//
// It is not a planning tool: it reads, it never writes, and it knows nothing
// of evidence or requirements (package engine matches requirements against a
// Graph).
package artifact

import (
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/aepflow/aepflow/ident"
	"github.com/aepflow/aepflow/predicate"
)

// CanonicalKinds lists the named artifact kinds: the `artifact_kinds` of
// aep/1 plus `executable-system-specification`.
var CanonicalKinds = []string{
	"vision", "product-requirements", "initiative", "epic", "story", "task",
	"specification", "acceptance-criteria", "design", "feature-design",
	"component-design", "architecture-design", "api-design", "data-design",
	"architecture-decision-record", "test-plan", "evaluation-plan",
	"verification-report", "review-result", "approval-record", "release-plan",
	"migration-plan", "runbook", "incident-report", "postmortem",
	"executable-system-specification",
}

// kindAlias returns the kind an alias stands for (a switch: a map would be
// built at the start of every process linking this package).
func kindAlias(k string) (string, bool) {
	switch k {
	case "adr":
		return "architecture-decision-record", true
	case "prd":
		return "product-requirements", true
	case "spec":
		return "specification", true
	case "ess":
		return "executable-system-specification", true
	case "review":
		return "review-result", true
	}
	return "", false
}

var designKinds = []string{"feature-design", "component-design", "architecture-design", "api-design", "data-design"}

// CanonicalKind returns the canonical spelling of an artifact kind (aliases
// resolved) and whether it is acceptable: a named kind, an alias, or any
// other kebab name (a custom kind).
func CanonicalKind(k string) (string, bool) {
	if c, ok := kindAlias(k); ok {
		return c, true
	}
	return k, ident.Valid(ident.Kebab, k)
}

// Lineage returns [k] or [k, parent]: design subkinds have parent `design`;
// other named kinds have none; a custom kind's parent is its last `-`
// segment when that segment differs from the kind (aliases are not resolved
// there, so `openapi-spec` has the custom parent `spec`).
func Lineage(k string) []string {
	if slices.Contains(designKinds, k) {
		return []string{k, "design"}
	}
	if slices.Contains(CanonicalKinds, k) {
		return []string{k}
	}
	if i := strings.LastIndexByte(k, '-'); i >= 0 && i+1 < len(k) {
		return []string{k, k[i+1:]}
	}
	return []string{k}
}

// IsA reports whether kind k counts as kind x (x is in k's lineage).
func IsA(k, x string) bool { return slices.Contains(Lineage(k), x) }

// NamedStatuses lists the named artifact statuses.
var NamedStatuses = []string{"draft", "proposed", "in_review", "approved", "accepted", "rejected", "active", "implemented", "superseded", "archived"}

// ValidStatus reports whether s is a named status or a custom one
// (`^[a-z][a-z0-9_-]*$`).
func ValidStatus(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// ApprovedClass reports whether s counts as approved (approved, accepted,
// active, implemented).
func ApprovedClass(s string) bool {
	switch s {
	case "approved", "accepted", "active", "implemented":
		return true
	}
	return false
}

// Retired reports whether s is a retired status (superseded, archived,
// rejected).
func Retired(s string) bool {
	switch s {
	case "superseded", "archived", "rejected":
		return true
	}
	return false
}

// Relations lists the relation kinds an artifact may declare.
var Relations = []string{"informed_by", "derived_from", "decomposes", "specifies", "designs", "implements", "decides", "reviews", "verifies", "blocks", "depends_on", "supersedes", "delivers", "serves"}

// Relation is one outgoing edge: Kind to the artifact Target, optionally
// pinned to a Version (`<ref>@<version>`).
type Relation struct {
	Kind    string
	Target  string
	Version string
}

// Artifact is one node of the graph. Kind is canonical.
type Artifact struct {
	ID        string
	Kind      string
	Status    string
	Version   string
	Relations []Relation
}

// Graph is a checked artifact graph: artifacts sorted by id, ids unique,
// every relation target present.
type Graph struct {
	Artifacts []Artifact
	byID      map[string]int
}

// NewGraph returns the graph of arts, sorted by id. It does not check the
// graph; the readers do before calling it.
func NewGraph(arts []Artifact) *Graph {
	g := &Graph{Artifacts: slices.Clone(arts), byID: map[string]int{}}
	sort.SliceStable(g.Artifacts, func(i, j int) bool { return g.Artifacts[i].ID < g.Artifacts[j].ID })
	for i, a := range g.Artifacts {
		g.byID[a.ID] = i
	}
	return g
}

// Get returns the artifact with id, if any. A nil Graph is empty.
func (g *Graph) Get(id string) (Artifact, bool) {
	if g == nil {
		return Artifact{}, false
	}
	i, ok := g.byID[id]
	if !ok {
		return Artifact{}, false
	}
	return g.Artifacts[i], true
}

// OfKind returns the artifacts whose lineage holds kind, in id order.
func (g *Graph) OfKind(kind string) []Artifact {
	if g == nil {
		return nil
	}
	var out []Artifact
	for _, a := range g.Artifacts {
		if IsA(a.Kind, kind) {
			out = append(out, a)
		}
	}
	return out
}

// Binding is one fact the graph projects, in projection order.
type Binding struct {
	Path  string
	Value predicate.Value
}

// Facts returns the artifact-graph facts (engine.md §2.4) in binding order:
// `artifact.total`, then per kind K present (sorted) `exists`, `count`,
// `approved`, `approved.count`, then per status S of K (sorted)
// `artifact.K.S.count` (which overwrites `approved.count` for S = approved).
func (g *Graph) Facts() []Binding {
	var arts []Artifact
	if g != nil {
		arts = g.Artifacts
	}
	out := []Binding{{"artifact.total", predicate.Number(float64(len(arts)))}}
	count := map[string]int{}
	approved := map[string]int{}
	byStatus := map[string]map[string]int{}
	for _, a := range arts {
		for _, k := range Lineage(a.Kind) {
			count[k]++
			if ApprovedClass(a.Status) {
				approved[k]++
			}
			if byStatus[k] == nil {
				byStatus[k] = map[string]int{}
			}
			byStatus[k][a.Status]++
		}
	}
	for _, k := range slices.Sorted(maps.Keys(count)) {
		p := "artifact." + k
		out = append(out,
			Binding{p + ".exists", predicate.Bool(true)},
			Binding{p + ".count", predicate.Number(float64(count[k]))},
			Binding{p + ".approved", predicate.Bool(approved[k] > 0)},
			Binding{p + ".approved.count", predicate.Number(float64(approved[k]))})
		for _, s := range slices.Sorted(maps.Keys(byStatus[k])) {
			out = append(out, Binding{p + "." + s + ".count", predicate.Number(float64(byStatus[k][s]))})
		}
	}
	return out
}
