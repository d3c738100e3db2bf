package diag

import (
	"encoding/json"
	"io"
	"slices"
)

// Tool names the program that produced a SARIF log.
type Tool struct {
	Name           string
	Version        string
	InformationURI string
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
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID string `json:"id"`
}

type sarifResult struct {
	RuleID    string            `json:"ruleId"`
	Level     string            `json:"level"`
	Message   sarifMessage      `json:"message"`
	Locations []sarifLocation   `json:"locations,omitempty"`
	Props     map[string]string `json:"properties,omitempty"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifLocation struct {
	Physical *sarifPhysical `json:"physicalLocation,omitempty"`
	Logical  []sarifLogical `json:"logicalLocations,omitempty"`
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

// WriteSARIF prints l as a SARIF 2.1.0 log with one run by tool. Columns are
// reported in code points, SARIF's default unit ("unicodeCodePoints"). The
// hint travels in the result's properties.
func WriteSARIF(w io.Writer, l List, tool Tool) error {
	run := sarifRun{Tool: sarifTool{Driver: sarifDriver{
		Name: tool.Name, Version: tool.Version, InformationURI: tool.InformationURI, Rules: []sarifRule{},
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
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{ID: id})
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

func sarifResultOf(d Diagnostic) sarifResult {
	level := "error"
	if d.Severity == Warning {
		level = "warning"
	}
	r := sarifResult{RuleID: d.Code, Level: level, Message: sarifMessage{Text: d.Message}}
	var loc sarifLocation
	if d.File != "" {
		loc.Physical = &sarifPhysical{Artifact: sarifArtifact{URI: d.File}}
		if d.Pos.IsValid() {
			loc.Physical.Region = &sarifRegion{StartLine: d.Pos.Line, StartColumn: d.Pos.Column,
				EndLine: d.End.Line, EndColumn: d.End.Column}
		}
	}
	if d.Path != "" {
		loc.Logical = []sarifLogical{{FullyQualifiedName: d.Path}}
	}
	if loc.Physical != nil || loc.Logical != nil {
		r.Locations = []sarifLocation{loc}
	}
	if d.Hint != "" {
		r.Props = map[string]string{"hint": d.Hint}
	}
	return r
}
