package flow

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReadFileRefusesSpecialFiles: a named pipe would block the reader
// forever and /dev/zero would be read until memory runs out; both are
// refused as flow_unreadable, naming what they are.
func TestReadFileRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "flow.yaml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	zero := filepath.Join(dir, "zero.json")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	for path, what := range map[string]string{fifo: "a named pipe", zero: "a character device", dir: "a directory"} {
		raw, ds := ReadFile(path)
		if raw != nil || len(ds) != 1 || ds[0].Code != "flow_unreadable" || !strings.Contains(ds[0].Message, "it is "+what+", not a regular file") {
			t.Errorf("%s: %v", path, ds)
		}
	}
}

func TestDetectFormat(t *testing.T) {
	for in, want := range map[string]string{
		`{"id":"x"}`:      "JSON",
		"\n  \t{\"a\":1}": "JSON",
		"\ufeff{}":        "JSON",
		"id: x\n":         "YAML",
		"# {json?}\n{}":   "YAML",
		"":                "YAML",
	} {
		if got := DetectFormat([]byte(in)); got != want {
			t.Errorf("DetectFormat(%q) = %s; want %s", in, got, want)
		}
	}
	raw, ds := ReadAs("<stdin>", DetectFormat([]byte(`{"id":"x"}`)), []byte(`{"id":"x"}`))
	if raw == nil || raw.Format != "JSON" || len(ds) != 0 {
		t.Errorf("ReadAs JSON: %v %v", raw, ds)
	}
}
