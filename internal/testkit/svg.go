package testkit

import (
	"bytes"
	"encoding/xml"
	"io"
	"slices"
	"testing"
)

// SVGTitles returns the <title> texts of the SVG's groups of class cls
// (Graphviz writes one <g class="node"> or <g class="edge"> per node or
// edge, its title the node's name or "a->b"), in document order. It fails
// t when svg is not well-formed XML.
func SVGTitles(t testing.TB, svg []byte, cls string) []string {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(svg))
	dec.Strict = true
	var titles []string
	inGroup, inTitle := false, false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return titles
		}
		if err != nil {
			t.Fatalf("svg is not well-formed XML: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if tok.Name.Local == "g" {
				inGroup = false
				for _, a := range tok.Attr {
					if a.Name.Local == "class" && a.Value == cls {
						inGroup = true
					}
				}
			}
			inTitle = tok.Name.Local == "title" && inGroup
		case xml.CharData:
			if inTitle {
				titles = append(titles, string(tok))
			}
		case xml.EndElement:
			inTitle = false
		}
	}
}

// SVGGraph returns the titles of the SVG's node groups, sorted, and the
// number of its edge groups: the shape of a rendered workflow.
func SVGGraph(t testing.TB, svg []byte) ([]string, int) {
	t.Helper()
	return slices.Sorted(slices.Values(SVGTitles(t, svg, "node"))), len(SVGTitles(t, svg, "edge"))
}
