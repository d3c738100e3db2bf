package testkit

import (
	"os"
	"strings"
	"testing"
)

// TableRows returns the rows of the first Markdown table after the line
// heading in the file at path, keyed by the text of their first cell; each
// value holds the row's cells, trimmed. It stops the test when the file or
// the table is missing: docs checked by a test cannot drift unseen.
func TableRows(t testing.TB, path, heading string) map[string][]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	start := -1
	for i, l := range lines {
		if l == heading {
			start = i
			break
		}
	}
	if start < 0 {
		t.Fatalf("%s has no line %q", path, heading)
	}
	rows := map[string][]string{}
	inTable := false
	for _, l := range lines[start+1:] {
		if !strings.HasPrefix(l, "|") {
			if inTable {
				break
			}
			continue
		}
		inTable = true
		cells := strings.Split(strings.Trim(l, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		if strings.HasPrefix(cells[0], "---") {
			continue
		}
		rows[cells[0]] = cells
	}
	if len(rows) == 0 {
		t.Fatalf("%s has no table after %q", path, heading)
	}
	return rows
}
