package yamltag

import (
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// TestUnreadable: a tag is kept when the value, written plainly, reads as
// it (`!!float` also over an integer; `!!str` over anything; `!!map` and
// `!!seq` on their own kinds); a core tag over a value that reads otherwise
// and any tag outside the core schema are reported; an untagged node never
// is.
func TestUnreadable(t *testing.T) {
	for src, want := range map[string]string{
		"!!str 010":              "",
		"!!int '2'":              "",
		"!!float 1":              "",
		"!!bool true":            "",
		"!!null ~":               "",
		"!!timestamp 2001-12-14": "",
		"!!map {a: 1}":           "",
		"!!seq [a]":              "",
		"yes":                    "",
		"!!bool yes":             "`yes` is tagged `!!bool` but is not a boolean (true or false)",
		"!!int 1.5":              "`1.5` is tagged `!!int` but is not an integer",
		"!!null ''":              "",
		"!!null x":               "`x` is tagged `!!null` but is not null",
		"!custom x":              "the tag `!custom` is not one of YAML's core schema",
		"!!map [a]":              "the tag `!!map` is not one of YAML's core schema",
		"!!omap [a: 1]":          "the tag `!!omap` is not one of YAML's core schema",
	} {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		got, unreadable := Unreadable(doc.Content[0])
		if got != want || unreadable != (want != "") {
			t.Errorf("%s: %q (%v), want %q", src, got, unreadable, want)
		}
	}
}
