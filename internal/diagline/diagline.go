// Package diagline folds diagnostics into one line of text, for the
// answers that must fit on one stderr line (the transition hook's CANNOT)
// and the errors that feed them.
//
// It is not a printer: diag.WriteText, WriteJSON and WriteSARIF print
// diagnostics for people and tools; this only joins them into a message.
// The line reads as the text printer writes each diagnostic: a line break
// or a control character inside a message is escaped by diag.EscapeText
// (`\x0a`), the one escaping of aepflow's text, not folded into a space.
package diagline

import (
	"strings"

	"github.com/aepflow/aepflow/diag"
)

// Join renders the errors of list on one line, in sorted order, each
// escaped by diag.EscapeText and joined by "; ". Warnings are left out.
// A printer that escapes the line again changes nothing (EscapeText is
// idempotent).
func Join(list diag.List) string {
	var parts []string
	for _, d := range list.Errors().Sorted() {
		parts = append(parts, diag.EscapeText(d.Error()))
	}
	return strings.Join(parts, "; ")
}
