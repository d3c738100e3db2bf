package sarif_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/diag/sarif"
)

// rule describes a code the way package rules does.
func rule(code string) sarif.Rule {
	return sarif.Rule{Short: "Short " + code + ".", Full: "Short " + code + ". And more.", HelpURI: "https://example.test/docs#" + code}
}

// TestSARIFForCodeScanning checks what GitHub code scanning reads: every
// rule described and linked, the tool's home and semantic version, the
// hint in the markdown message, a physical location for every result
// about a file (escaped, with forward slashes), related locations and
// fixes.
func TestSARIFForCodeScanning(t *testing.T) {
	l := List{
		Errorf("unknown_state", "`to` names `reveiw`, which is not a declared state").At(filepath.Join("a dir", "w.yaml"), Pos{Line: 3, Column: 9}).
			WithPath("workflow w.transitions[0].to").WithHint("did you mean `review`? *not* emphasis").
			WithRelated("other.yaml", Pos{Line: 1, Column: 1}, "declared here").
			WithFix(Fix{Title: "replace `reveiw` with `review`", File: filepath.Join("a dir", "w.yaml"), Span: Span{Start: Pos{Line: 3, Column: 9}, End: Pos{Line: 3, Column: 15}}, NewText: "review"}),
		Errorf("input_too_large", "the file is too large").InFile("big.yaml"),
	}
	var b bytes.Buffer
	if err := sarif.Write(&b, l, sarif.Tool{Name: "aepflow", Version: "devel", InformationURI: "https://example.test", Rule: rule}); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Version, SemanticVersion, InformationURI string
					Rules                                    []struct {
						ID               string
						ShortDescription struct{ Text string }
						FullDescription  struct{ Text string }
						HelpURI          string
					}
				}
			}
			Results []struct {
				Message   struct{ Text, Markdown string }
				Locations []struct {
					PhysicalLocation *struct {
						ArtifactLocation struct{ URI string }
					}
				}
				RelatedLocations []struct {
					PhysicalLocation struct{ ArtifactLocation struct{ URI string } }
					Message          struct{ Text string }
				}
				Fixes []struct {
					ArtifactChanges []struct {
						Replacements []struct {
							DeletedRegion   struct{ StartLine, StartColumn, EndLine, EndColumn int }
							InsertedContent struct{ Text string }
						}
					}
				}
			}
		}
	}
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if d := run.Tool.Driver; d.Version != "devel" || d.SemanticVersion != "0.0.0-devel" || d.InformationURI != "https://example.test" {
		t.Errorf("driver %+v", d)
	}
	for _, r := range run.Tool.Driver.Rules {
		if r.ShortDescription.Text == "" || r.FullDescription.Text == "" || r.HelpURI != "https://example.test/docs#"+r.ID {
			t.Errorf("rule %+v", r)
		}
	}
	res := run.Results[0]
	if want := "`to` names `reveiw`, which is not a declared state\n\n**Hint:** did you mean `review`? \\*not\\* emphasis"; res.Message.Markdown != want {
		t.Errorf("markdown %q, want %q", res.Message.Markdown, want)
	}
	if res.Locations[0].PhysicalLocation.ArtifactLocation.URI != "a%20dir/w.yaml" {
		t.Errorf("uri %+v", res.Locations[0])
	}
	if len(res.RelatedLocations) != 1 || res.RelatedLocations[0].Message.Text != "declared here" {
		t.Errorf("related %+v", res.RelatedLocations)
	}
	if f := res.Fixes; len(f) != 1 || f[0].ArtifactChanges[0].Replacements[0].InsertedContent.Text != "review" || f[0].ArtifactChanges[0].Replacements[0].DeletedRegion.EndColumn != 15 {
		t.Errorf("fixes %+v", f)
	}
	if run.Results[1].Locations[0].PhysicalLocation == nil || run.Results[1].Message.Markdown != "" {
		t.Errorf("a file without a position still gets a physical location: %+v", run.Results[1])
	}
	for v, want := range map[string]string{"v1.2.3": "1.2.3", "v0.0.0-20260101000000-abcdef123456": "0.0.0-20260101000000-abcdef123456", "1.0.0+meta": "1.0.0+meta", "devel": "0.0.0-devel"} {
		var b bytes.Buffer
		_ = sarif.Write(&b, nil, sarif.Tool{Name: "t", Version: v})
		if !strings.Contains(b.String(), `"semanticVersion": "`+want+`"`) {
			t.Errorf("version %s: %s", v, b.String())
		}
	}
}
