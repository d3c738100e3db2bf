package transition

import (
	"strings"

	"github.com/aepflow/aepflow/ident"
)

// Moments of a consultation.
const (
	Enter = "enter"
	Leave = "leave"
)

// FlowState maps a flow group path to the workflow state the moment is
// about (engine.md §8.4). It returns "" for the root group and for a last
// segment that is not a valid state id; such paths are answered like root.
// `<state>-again` names its state; `<first>-to-<last>` names the first on
// enter and the last on leave. State ids holding `-to-` or ending in
// `-again` are misread, as in the reference.
func FlowState(path, moment string) string {
	leaf := path
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		leaf = path[i+1:]
	}
	var state string
	switch {
	case leaf == "" || leaf == "root":
		return ""
	case strings.HasSuffix(leaf, "-again"):
		state = strings.TrimSuffix(leaf, "-again")
	case strings.Contains(leaf, "-to-"):
		first, last, _ := strings.Cut(leaf, "-to-")
		state = first
		if moment == Leave {
			state = last
		}
	default:
		state = leaf
	}
	if !ident.Valid(ident.DottedSnake, state) {
		return ""
	}
	return state
}
