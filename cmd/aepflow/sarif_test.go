package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sarifLog is the part of a SARIF 2.1.0 log that code scanning reads.
type sarifLog struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name  string `json:"name"`
				Rules []struct {
					ID      string `json:"id"`
					HelpURI string `json:"helpUri"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Results []struct {
			RuleID    string `json:"ruleId"`
			Level     string `json:"level"`
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI string `json:"uri"`
					} `json:"artifactLocation"`
					Region struct {
						StartLine int `json:"startLine"`
					} `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
		} `json:"results"`
	} `json:"runs"`
}

// TestSARIFOfEveryCommandThatOffersIt: validate's and analyze's SARIF is a
// 2.1.0 log whose every result names a listed rule, every rule links to
// the section of a code page that explains it, and every result about a
// document points at its line.
func TestSARIFOfEveryCommandThatOffersIt(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("bad/workflows/w.yaml", "id: demo/w\ntitle: W\ninitial: nowhere\nstates:\n  a: {title: A, terminal: true}\n")
	write("gate/workflows/gate.yaml", "id: demo/gate\nversion: 1\ntitle: Gate\ninitial: build\nstates:\n  build: {title: Build}\n"+
		"  check: {title: Check}\n  ship: {title: Ship, terminal: true}\n  drop: {title: Drop, terminal: true}\ntransitions:\n"+
		"  - {from: build, to: check, when: diff.exists}\n  - {from: check, to: ship, when: tests.unit.failed == 0}\n"+
		"  - {from: check, to: build, when: tests.unit.failed > 0}\n  - {from: check, to: drop, when: tests.unit.failed >= 3}\n")
	for _, args := range [][]string{
		{"validate", "--root", filepath.Join(dir, "bad"), "--format", "sarif"},
		{"analyze", "--root", filepath.Join(dir, "gate"), "--id", "demo/gate", "--format", "sarif"},
		{"analyze", "--root", filepath.Join(dir, "gate"), "--id", "demo/gate", "--out", filepath.Join(dir, "gate.sarif")},
	} {
		var stdout, stderr bytes.Buffer
		code := run(args, strings.NewReader(""), &stdout, &stderr)
		if code != exitProblems {
			t.Errorf("%v: exit %d, want %d\n%s", args, code, exitProblems, stderr.String())
		}
		data := stdout.Bytes()
		if out := args[len(args)-1]; strings.HasSuffix(out, ".sarif") {
			var err error
			if data, err = os.ReadFile(out); err != nil {
				t.Fatal(err)
			}
		}
		var log sarifLog
		if err := json.Unmarshal(data, &log); err != nil {
			t.Fatalf("%v: not JSON: %v\n%s", args, err, data)
		}
		if log.Version != "2.1.0" || !strings.Contains(log.Schema, "sarif") || len(log.Runs) != 1 {
			t.Fatalf("%v: version %q, $schema %q, %d runs", args, log.Version, log.Schema, len(log.Runs))
		}
		r := log.Runs[0]
		helps := map[string]string{}
		for _, rule := range r.Tool.Driver.Rules {
			helps[rule.ID] = rule.HelpURI
			if !strings.HasPrefix(rule.HelpURI, "https://") || !strings.Contains(rule.HelpURI, "/docs/codes-") || !strings.Contains(rule.HelpURI, "#") {
				t.Errorf("%v: rule %s links to %q, not a section of a code page", args, rule.ID, rule.HelpURI)
			}
		}
		if len(r.Results) == 0 {
			t.Errorf("%v: no results", args)
		}
		for _, res := range r.Results {
			if _, ok := helps[res.RuleID]; !ok {
				t.Errorf("%v: result %s names no listed rule", args, res.RuleID)
			}
			if len(res.Locations) == 0 || res.Locations[0].PhysicalLocation.Region.StartLine < 1 ||
				!strings.HasSuffix(res.Locations[0].PhysicalLocation.ArtifactLocation.URI, ".yaml") {
				t.Errorf("%v: result %s is not positioned in its document: %+v", args, res.RuleID, res.Locations)
			}
		}
	}
}
