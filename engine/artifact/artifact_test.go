package artifact

import (
	"github.com/aepflow/aepflow/diag"
	"strings"
	"testing"
)

func TestLineage(t *testing.T) {
	for k, want := range map[string]string{
		"feature-design": "feature-design design", "story": "story",
		"threat-design": "threat-design design", "openapi-spec": "openapi-spec spec", "widget": "widget",
	} {
		if got := strings.Join(Lineage(k), " "); got != want {
			t.Errorf("Lineage(%s) = %s, want %s", k, got, want)
		}
	}
	if c, _ := CanonicalKind("adr"); c != "architecture-decision-record" {
		t.Errorf("adr -> %s", c)
	}
}

func TestGraphFacts(t *testing.T) {
	g := NewGraph([]Artifact{
		{ID: "d:1", Kind: "api-design", Status: "approved"},
		{ID: "d:2", Kind: "design", Status: "implemented"},
		{ID: "d:3", Kind: "design", Status: "draft"},
	})
	got := map[string]string{}
	for _, b := range g.Facts() {
		got[b.Path] = b.Value.String()
	}
	want := map[string]string{
		"artifact.total": "3", "artifact.design.count": "3", "artifact.design.approved": "true",
		"artifact.design.approved.count": "1", "artifact.design.implemented.count": "1",
		"artifact.api-design.exists": "true", "artifact.api-design.approved.count": "1",
	}
	for p, v := range want {
		if got[p] != v {
			t.Errorf("%s = %q, want %q", p, got[p], v)
		}
	}
	if _, ok := got["artifact.specification.exists"]; ok {
		t.Error("a kind with no artifact projected exists")
	}
}

func TestStoreProblems(t *testing.T) {
	g, diags := ReadStore("testdata/bad")
	if g != nil {
		t.Fatal("a bad store built a graph")
	}
	codes := strings.Join(diags.Codes(), " ")
	for _, c := range []string{CodeSelfRelation, CodeUnknownTarget, CodeRelationCycle, "invalid_value"} {
		if !strings.Contains(codes, c) {
			t.Errorf("missing %s in %v", c, diags)
		}
	}
	if g, diags := ReadStore("testdata/absent"); g == nil || diags.HasErrors() || len(g.Artifacts) != 0 {
		t.Errorf("a missing store is not empty: %v", diags)
	}
}

func FuzzPlanningFile(f *testing.F) {
	f.Add([]byte("---\nformat: aep.planning-md/1\nid: story:x\nkind: story\nstatus: active\nrelations:\n  - specifies: story:y@3\n---\nbody\n"))
	f.Add([]byte("---\n---\n"))
	f.Add([]byte("no front matter"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var l diag.List
		e, ok := parsePlanningFile("f.md", data, &l)
		if ok && (e.ID == "" || !ValidID(e.ID)) {
			t.Errorf("accepted an artifact with id %q", e.ID)
		}
	})
}
