package testshared

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFindHonoursTheOverride(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(EnvVar, dir)
	if _, err := Find(); err == nil {
		t.Fatal("a folder without corpus/ was accepted")
	}
	if err := os.Mkdir(filepath.Join(dir, "corpus"), 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := Find()
	if err != nil || got != dir {
		t.Fatalf("Find() = %q, %v; want %q", got, err, dir)
	}
	if c := Corpus(t, "tree"); c != filepath.Join(dir, "corpus", "tree") {
		t.Errorf("Corpus = %q", c)
	}
}
