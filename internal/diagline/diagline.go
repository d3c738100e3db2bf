// Package diagline folds diagnostics into one line of text, for the
// answers that must fit on one stderr line (the transition hook's CANNOT)
// and the errors that feed them.
//
// It is not a printer: diag.WriteText, WriteJSON and WriteSARIF print
// diagnostics for people and tools; this only joins them into a message.
package diagline

import (
	"strings"

	"github.com/aepflow/aepflow/diag"
)

// Join renders the errors of list on one line, in sorted order, joined by
// "; ". Warnings are left out.
func Join(list diag.List) string {
	var parts []string
	for _, d := range list.Errors().Sorted() {
		parts = append(parts, Fold(d.Error()))
	}
	return strings.Join(parts, "; ")
}

// Fold replaces every line break in s (CRLF, LF or CR) by a space, so a
// message stays on one line.
func Fold(s string) string {
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}
