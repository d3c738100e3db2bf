package trace

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The JUnit schema shape CI systems read: the Jenkins / Ant JUnit XSD
// (the one GitLab, Jenkins and the GitHub Actions reporters accept),
// reduced to what a validator checks — which elements may appear where,
// in which order, how often, with which attributes (required ones
// present, counts non-negative integers), and counts that agree with the
// cases. TestJUnitMatchesTheSchema validates every JUnit document the
// fixtures make against it, so an element out of place, an attribute the
// schema does not know or a count that does not add up fails the test.

// junitElement is one element's rule: its attributes (required and
// optional), its children in the order the schema's sequence allows,
// each with an occurrence bound, and whether it holds text.
type junitElement struct {
	required, optional []string
	counts             []string // attributes that are non-negative integers
	children           []junitChild
	text               bool
}

type junitChild struct {
	name     string
	min, max int // max -1: unbounded
}

var junitSchema = map[string]junitElement{
	"testsuites": {
		optional: []string{"name", "time", "tests", "failures", "errors", "disabled", "skipped"},
		counts:   []string{"tests", "failures", "errors", "disabled", "skipped"},
		children: []junitChild{{"testsuite", 0, -1}},
	},
	"testsuite": {
		required: []string{"name", "tests"},
		optional: []string{"failures", "errors", "time", "disabled", "skipped", "timestamp", "hostname", "id", "package", "file", "log", "url", "version", "group"},
		counts:   []string{"tests", "failures", "errors", "disabled", "skipped"},
		children: []junitChild{{"properties", 0, 1}, {"testcase", 0, -1}, {"system-out", 0, 1}, {"system-err", 0, 1}},
	},
	"properties": {children: []junitChild{{"property", 1, -1}}},
	"property":   {required: []string{"name", "value"}},
	"testcase": {
		required: []string{"name"},
		optional: []string{"classname", "assertions", "time", "status", "file", "line"},
		children: []junitChild{{"skipped", 0, 1}, {"error", 0, -1}, {"failure", 0, -1}, {"system-out", 0, -1}, {"system-err", 0, -1}},
	},
	"failure":    {optional: []string{"message", "type"}, text: true},
	"error":      {optional: []string{"message", "type"}, text: true},
	"skipped":    {optional: []string{"message"}, text: true},
	"system-out": {text: true},
	"system-err": {text: true},
}

// xmlNode is a parsed element: its name, attributes, children and text.
type xmlNode struct {
	name     string
	attrs    map[string]string
	children []*xmlNode
	text     strings.Builder
}

// parseXML reads a whole document into nodes, refusing what an XML
// reader refuses (encoding/xml is strict about syntax and characters).
func parseXML(data []byte) (*xmlNode, error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	var stack []*xmlNode
	var root *xmlNode
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			n := &xmlNode{name: t.Name.Local, attrs: map[string]string{}}
			for _, a := range t.Attr {
				n.attrs[a.Name.Local] = a.Value
			}
			if len(stack) == 0 {
				if root != nil {
					return nil, fmt.Errorf("a second root element <%s>", n.name)
				}
				root = n
			} else {
				parent := stack[len(stack)-1]
				parent.children = append(parent.children, n)
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text.Write(t)
			}
		}
	}
	if root == nil {
		return nil, fmt.Errorf("no root element")
	}
	return root, nil
}

// validateJUnit checks a node and its subtree against junitSchema and
// returns every violation, each with the element's path.
func validateJUnit(n *xmlNode, path string) []string {
	path += "/" + n.name
	rule, ok := junitSchema[n.name]
	if !ok {
		return []string{path + ": an element the schema does not know"}
	}
	var bad []string
	for _, a := range rule.required {
		if _, ok := n.attrs[a]; !ok {
			bad = append(bad, fmt.Sprintf("%s: required attribute %q missing", path, a))
		}
	}
	for a, v := range n.attrs {
		if !slices.Contains(rule.required, a) && !slices.Contains(rule.optional, a) {
			bad = append(bad, fmt.Sprintf("%s: attribute %q the schema does not allow", path, a))
		}
		if slices.Contains(rule.counts, a) {
			if k, err := strconv.Atoi(v); err != nil || k < 0 {
				bad = append(bad, fmt.Sprintf("%s: %s=%q is not a non-negative integer", path, a, v))
			}
		}
	}
	if !rule.text && strings.TrimSpace(n.text.String()) != "" {
		bad = append(bad, path+": text where the schema allows only elements")
	}
	// The children, in the sequence's order, each within its bound.
	next := 0
	for _, c := range rule.children {
		k := 0
		for next < len(n.children) && n.children[next].name == c.name {
			bad = append(bad, validateJUnit(n.children[next], path)...)
			next, k = next+1, k+1
		}
		if k < c.min || (c.max >= 0 && k > c.max) {
			bad = append(bad, fmt.Sprintf("%s: %d <%s>, the schema allows %d to %d", path, k, c.name, c.min, c.max))
		}
	}
	if next < len(n.children) {
		bad = append(bad, fmt.Sprintf("%s: <%s> out of the schema's order or not allowed here", path, n.children[next].name))
	}
	return bad
}

// junitCounts checks that a document's counts add up: a suite's tests,
// failures and errors are its cases', the root's the suites' sums.
func junitCounts(root *xmlNode) []string {
	var bad []string
	sum := map[string]int{}
	for _, s := range root.children {
		got := map[string]int{}
		for _, c := range s.children {
			if c.name != "testcase" {
				continue
			}
			got["tests"]++
			for _, p := range c.children {
				switch p.name {
				case "failure":
					got["failures"]++
				case "error":
					got["errors"]++
				}
			}
		}
		for _, a := range []string{"tests", "failures", "errors"} {
			if v, ok := s.attrs[a]; ok && v != strconv.Itoa(got[a]) {
				bad = append(bad, fmt.Sprintf("testsuite %q: %s=%s, its cases hold %d", s.attrs["name"], a, v, got[a]))
			}
			sum[a] += got[a]
		}
	}
	for _, a := range []string{"tests", "failures", "errors"} {
		if v, ok := root.attrs[a]; ok && v != strconv.Itoa(sum[a]) {
			bad = append(bad, fmt.Sprintf("testsuites: %s=%s, the suites hold %d", a, v, sum[a]))
		}
	}
	return bad
}

// TestJUnitMatchesTheSchema writes the JUnit report of suites holding
// every row the report can hold — ok, gap, unknown, advisory, a refused
// and an unreadable transcript, hostile text — and validates each against
// the schema shape: the elements, their order and attributes, the counts.
func TestJUnitMatchesTheSchema(t *testing.T) {
	specs := []string{"codex.trace.yaml", "events.trace.yaml", "kinds-ok.trace.yaml", "kinds-gap.trace.yaml"}
	seen := map[string]bool{}
	for _, name := range specs {
		spec := mustSpec(t, readFile(t, "../testdata/trace/specs/"+name))
		sources := append(fixtureSuite(t), bytesSource("runs/a&<b>\"\x01.jsonl", []byte(`{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t","name":"Bash","input":{"command":"x \u0001 ]]> </failure> \ufffe"}}]}}`+"\n")))
		suite, err := CheckSuite(spec, sources, CheckOptions{}, ReadOptions{}, 2)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := suite.WriteJUnit(&b); err != nil {
			t.Fatal(err)
		}
		root, err := parseXML(b.Bytes())
		if err != nil {
			t.Fatalf("%s: not XML: %v\n%s", name, err, b.String())
		}
		if root.name != "testsuites" || len(root.children) != len(sources) {
			t.Fatalf("%s: root <%s> with %d suites, want <testsuites> with %d", name, root.name, len(root.children), len(sources))
		}
		for _, v := range append(validateJUnit(root, ""), junitCounts(root)...) {
			t.Errorf("%s: %s", name, v)
		}
		// Which shapes the fixtures reached, so that the test cannot pass
		// on documents missing what it is meant to validate.
		for _, s := range root.children {
			for _, c := range s.children {
				if c.name == "properties" {
					seen["properties"] = true
				}
				for _, p := range c.children {
					seen[p.name] = true
					if p.name == "system-out" && strings.HasPrefix(p.text.String(), "advisory") {
						seen["advisory"] = true
					}
				}
			}
		}
	}
	for _, shape := range []string{"properties", "failure", "error", "system-out", "advisory"} {
		if !seen[shape] {
			t.Errorf("no fixture suite produced a %s", shape)
		}
	}
}

// TestJUnitSchemaRejects: the validator itself refuses what the schema
// refuses, so that TestJUnitMatchesTheSchema can fail.
func TestJUnitSchemaRejects(t *testing.T) {
	for _, doc := range []string{
		`<testsuites><testsuite tests="1"><testcase name="a"/></testsuite></testsuites>`,
		`<testsuites><testsuite name="s" tests="1"><testcase name="a"/><properties><property name="p" value="v"/></properties></testsuite></testsuites>`,
		`<testsuites><testsuite name="s" tests="1"><testcase name="a" duration="1"/></testsuite></testsuites>`,
		`<testsuites><testsuite name="s" tests="-1"></testsuite></testsuites>`,
		`<testsuites><testsuite name="s" tests="1"><testcase name="a"><failure/><skipped/></testcase></testsuite></testsuites>`,
		`<testsuites><testsuite name="s" tests="1"><properties/></testsuite></testsuites>`,
		`<testsuites><testsuite name="s" tests="2" failures="0"><testcase name="a"><failure/></testcase></testsuite></testsuites>`,
	} {
		root, err := parseXML([]byte(doc))
		if err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		bad := append(validateJUnit(root, ""), junitCounts(root)...)
		if root.name == "testsuites" && len(bad) == 0 {
			t.Errorf("the validator accepts %s", doc)
		}
	}
}
