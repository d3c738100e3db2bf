// Package sarif prints diagnostics as a SARIF 2.1.0 log, the format GitHub
// code scanning and other tools read. It is apart from package diag, which
// every package imports, so that the programs that print no SARIF (the
// transition hook among them) do not link what it needs.
package sarif

import (
	"cmp"
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/aepflow/aepflow/diag"
)

// Tool names the program that produced a SARIF log.
type Tool struct {
	// Name is the tool's name, "aepflow".
	Name string
	// Version is the version the binary reports (a tag, a pseudo-version,
	// or "devel").
	Version string
	// InformationURI is the tool's home page.
	InformationURI string
	// Rule describes a code for the log's rule list; nil gives rules with
	// an id only.
	Rule func(code string) Rule
}

// Rule describes one diagnostic code for tools that list rules: a
// one-sentence and a full description, and a link to its documentation.
type Rule struct {
	Short   string
	Full    string
	HelpURI string
}

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name            string      `json:"name"`
	Version         string      `json:"version,omitempty"`
	SemanticVersion string      `json:"semanticVersion,omitempty"`
	InformationURI  string      `json:"informationUri,omitempty"`
	Rules           []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string        `json:"id"`
	ShortDescription *sarifMessage `json:"shortDescription,omitempty"`
	FullDescription  *sarifMessage `json:"fullDescription,omitempty"`
	HelpURI          string        `json:"helpUri,omitempty"`
}

type sarifResult struct {
	RuleID    string            `json:"ruleId"`
	Level     string            `json:"level"`
	Message   sarifMessage      `json:"message"`
	Locations []sarifLocation   `json:"locations,omitempty"`
	Related   []sarifLocation   `json:"relatedLocations,omitempty"`
	Fixes     []sarifFix        `json:"fixes,omitempty"`
	Props     map[string]string `json:"properties,omitempty"`
}

type sarifMessage struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifLocation struct {
	ID       *int           `json:"id,omitempty"`
	Physical *sarifPhysical `json:"physicalLocation,omitempty"`
	Logical  []sarifLogical `json:"logicalLocations,omitempty"`
	Message  *sarifMessage  `json:"message,omitempty"`
}

type sarifPhysical struct {
	Artifact sarifArtifact `json:"artifactLocation"`
	Region   *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

type sarifLogical struct {
	FullyQualifiedName string `json:"fullyQualifiedName"`
}

type sarifFix struct {
	Description sarifMessage          `json:"description"`
	Changes     []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	Artifact     sarifArtifact      `json:"artifactLocation"`
	Replacements []sarifReplacement `json:"replacements"`
}

type sarifReplacement struct {
	Deleted  sarifRegion  `json:"deletedRegion"`
	Inserted sarifContent `json:"insertedContent"`
}

type sarifContent struct {
	Text string `json:"text"`
}

// Write prints l as a SARIF 2.1.0 log with one run by tool, as GitHub
// code scanning reads it: each code a rule (described by tool.Rule when
// given), each diagnostic a result whose markdown message carries the hint,
// located in its file when it has one (physicalLocation, in code points,
// SARIF's default "unicodeCodePoints") and at its document path
// (logicalLocations), with its related locations and its fixes. The hint
// also travels in the result's properties.
func Write(w io.Writer, l diag.List, tool Tool) error {
	run := sarifRun{Tool: sarifTool{Driver: sarifDriver{
		Name: tool.Name, Version: tool.Version, SemanticVersion: semanticVersion(tool.Version),
		InformationURI: tool.InformationURI, Rules: []sarifRule{},
	}}, Results: []sarifResult{}}
	var ids []string
	for _, d := range l {
		if !slices.Contains(ids, d.Code) {
			ids = append(ids, d.Code)
		}
		run.Results = append(run.Results, sarifResultOf(d))
	}
	slices.Sort(ids)
	for _, id := range ids {
		r := sarifRule{ID: id}
		if tool.Rule != nil {
			info := tool.Rule(id)
			r.ShortDescription = &sarifMessage{Text: info.Short}
			r.FullDescription = &sarifMessage{Text: info.Full}
			r.HelpURI = info.HelpURI
		}
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, r)
	}
	log := sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{run},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(log)
}

// semver matches a Semantic Versioning 2.0 version after an optional "v".
var semver = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^v?((0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)$`)
})

// semanticVersion returns version as SARIF's semanticVersion wants it
// (SemVer 2.0, no "v"); a build from a work tree ("devel") is 0.0.0-devel.
func semanticVersion(version string) string {
	if m := semver().FindStringSubmatch(version); m != nil {
		return m[1]
	}
	if version == "" {
		return ""
	}
	return "0.0.0-devel"
}

// artifactURI returns file as a SARIF artifact URI: a relative path with
// forward slashes, escaped; an absolute path as a file: URI.
func artifactURI(file string) string {
	p := filepath.ToSlash(file)
	if filepath.IsAbs(file) {
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	return (&url.URL{Path: p}).String()
}

func physical(file string, start, end diag.Pos) *sarifPhysical {
	loc := &sarifPhysical{Artifact: sarifArtifact{URI: artifactURI(file)}}
	if start.IsValid() {
		loc.Region = &sarifRegion{StartLine: start.Line, StartColumn: start.Column, EndLine: end.Line, EndColumn: end.Column}
	}
	return loc
}

func sarifResultOf(d diag.Diagnostic) sarifResult {
	level := "error"
	if d.Severity == diag.Warning {
		level = "warning"
	}
	r := sarifResult{RuleID: d.Code, Level: level, Message: sarifMessage{Text: d.Message}}
	if d.Hint != "" {
		r.Message.Markdown = markdownEscape(d.Message) + "\n\n**Hint:** " + markdownEscape(d.Hint)
		r.Props = map[string]string{"hint": d.Hint}
	}
	var loc sarifLocation
	if d.File != "" {
		loc.Physical = physical(d.File, d.Pos, d.End)
	}
	if d.Path != "" {
		loc.Logical = []sarifLogical{{FullyQualifiedName: d.Path}}
	}
	if loc.Physical != nil || loc.Logical != nil {
		r.Locations = []sarifLocation{loc}
	}
	for i, rel := range d.Related {
		if rel.File == "" {
			continue
		}
		id := i + 1
		r.Related = append(r.Related, sarifLocation{ID: &id, Physical: physical(rel.File, rel.Pos, diag.Pos{}), Message: &sarifMessage{Text: rel.Message}})
	}
	for _, f := range d.Fixes {
		file := cmp.Or(f.File, d.File)
		if file == "" {
			continue
		}
		r.Fixes = append(r.Fixes, sarifFix{Description: sarifMessage{Text: f.Title}, Changes: []sarifArtifactChange{{
			Artifact: sarifArtifact{URI: artifactURI(file)},
			Replacements: []sarifReplacement{{
				Deleted:  sarifRegion{StartLine: f.Span.Start.Line, StartColumn: f.Span.Start.Column, EndLine: f.Span.End.Line, EndColumn: f.Span.End.Column},
				Inserted: sarifContent{Text: f.NewText},
			}},
		}}})
	}
	return r
}

// markdownEscape keeps a message's code spans and escapes the characters
// that markdown would read as markup elsewhere (emphasis, links, HTML).
func markdownEscape(s string) string {
	var b strings.Builder
	inCode := false
	for _, r := range s {
		switch {
		case r == '`':
			inCode = !inCode
		case !inCode && strings.ContainsRune(`\*_[]<>#|~`, r):
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
