package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestUseColor: colour only on a terminal under auto, never into a buffer
// or a regular file, not with NO_COLOR or TERM=dumb; --color always and
// never decide alone.
func TestUseColor(t *testing.T) {
	defer func(m string) { colorMode = m }(colorMode)
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	t.Setenv("NO_COLOR", "")
	t.Setenv("TERM", "xterm")
	for _, c := range []struct {
		mode, noColor string
		w             any
		want          bool
	}{
		{"auto", "", &bytes.Buffer{}, false},
		{"auto", "", f, false},
		{"always", "", &bytes.Buffer{}, true},
		{"always", "1", f, true},
		{"never", "", f, false},
	} {
		colorMode = c.mode
		t.Setenv("NO_COLOR", c.noColor)
		var got bool
		switch w := c.w.(type) {
		case *bytes.Buffer:
			got = useColor(w)
		case *os.File:
			got = useColor(w)
		}
		if got != c.want {
			t.Errorf("--color %s, NO_COLOR=%q, %T: %v, want %v", c.mode, c.noColor, c.w, got, c.want)
		}
	}
	// A terminal, when there is one to ask.
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		colorMode = "auto"
		t.Setenv("NO_COLOR", "")
		if !useColor(tty) {
			t.Error("auto does not colour a terminal")
		}
		t.Setenv("NO_COLOR", "1")
		if useColor(tty) {
			t.Error("NO_COLOR did not turn auto off")
		}
		t.Setenv("NO_COLOR", "")
		t.Setenv("TERM", "dumb")
		if useColor(tty) {
			t.Error("TERM=dumb did not turn auto off")
		}
	}
}
