// Package yamltag judges the explicit tags of go.yaml.in/yaml/v3 nodes for
// every reader of YAML the project owns (package yamldoc for AEP
// documents, package trace for trace specifications, package flow for flow
// documents), so that `!!bool yes` or `!!null x` means one thing, a
// refusal, wherever it is written.
package yamltag

import (
	"fmt"

	yaml "go.yaml.in/yaml/v3"
)

// Hint is what to do about a tag Unreadable finds.
const Hint = "drop the tag and write the value plainly (quoted if it is text)"

// tagReading names what a scalar must read as, plain, to carry each core
// tag of YAML 1.2 (and the timestamp yaml.v3 resolves) explicitly.
var tagReading = map[string]string{
	"!!int":       "an integer",
	"!!float":     "a number",
	"!!bool":      "a boolean (true or false)",
	"!!null":      "null",
	"!!timestamp": "a timestamp",
}

// Unreadable reports whether n carries an explicit tag a reader would
// have to take on trust, and says why in a sentence: a tag outside YAML
// 1.2's core schema (`!custom`, `!!binary`, `!!set`), or a core tag its
// value does not read as written plainly (`!!bool yes`, `!!int two`,
// `!!null x`). yaml.v3 keeps such a tag on the node with the value as
// written, so each reader would otherwise decide alone what `!!bool 1` or
// `!!null x` means. A tag the value reads as anyway (`!!str 010`, `!!int
// "2"`, `!!float 1`, `!!map` on a mapping) only spells out the default and
// is not reported, nor is any untagged node.
func Unreadable(n *yaml.Node) (string, bool) {
	if n == nil || n.Style&yaml.TaggedStyle == 0 {
		return "", false
	}
	switch {
	case n.Kind == yaml.MappingNode && n.Tag == "!!map", n.Kind == yaml.SequenceNode && n.Tag == "!!seq":
		return "", false
	case n.Kind != yaml.ScalarNode:
		return fmt.Sprintf("the tag `%s` is not one of YAML's core schema", n.Tag), true
	case n.Tag == "!!str":
		return "", false
	}
	want, core := tagReading[n.Tag]
	if !core {
		return fmt.Sprintf("the tag `%s` is not one of YAML's core schema", n.Tag), true
	}
	plain := (&yaml.Node{Kind: yaml.ScalarNode, Value: n.Value}).ShortTag()
	if plain == n.Tag || (n.Tag == "!!float" && plain == "!!int") {
		return "", false
	}
	return fmt.Sprintf("`%s` is tagged `%s` but is not %s", n.Value, n.Tag, want), true
}
