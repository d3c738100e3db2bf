package protocol

import (
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// Names of the documents that never belong in a tree, as Misplaced returns
// them.
const (
	MisplacedTask     = "task"
	MisplacedManifest = "artifact manifest"
	MisplacedEvidence = "evidence document"
	MisplacedProject  = "project"
)

// taskKeys are keys only a task carries among the kinds AEP knows.
var taskKeys = []string{"objective", "constraints", "principle_overrides", "derived_from", "manifest", "artifact_manifest"}

// Misplaced recognises a task, an artifact manifest, an evidence document or
// a project file by its distinctive keys (documents.md §2.3) and returns
// which, or "" when root looks like none of them.
func Misplaced(root *yaml.Node) string {
	if root == nil {
		return ""
	}
	if root.Kind == yaml.SequenceNode {
		if len(root.Content) > 0 && hasKey(root.Content[0], "kind") &&
			(hasKey(root.Content[0], "observed_at") || hasKey(root.Content[0], "producer")) {
			return MisplacedEvidence
		}
		return ""
	}
	if root.Kind != yaml.MappingNode {
		return ""
	}
	if v := value(root, "version"); v != nil && v.Kind == yaml.ScalarNode {
		switch {
		case strings.HasPrefix(v.Value, "aep.project/"):
			return MisplacedProject
		case strings.HasPrefix(v.Value, "aep.artifacts/"):
			return MisplacedManifest
		}
	}
	if a := value(root, "artifacts"); a != nil && a.Kind == yaml.SequenceNode && !hasKey(root, "id") {
		return MisplacedManifest
	}
	for _, k := range taskKeys {
		if hasKey(root, k) {
			return MisplacedTask
		}
	}
	return ""
}

// value returns the value of key in mapping n, or nil.
func value(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

func hasKey(n *yaml.Node, key string) bool { return value(n, key) != nil }
