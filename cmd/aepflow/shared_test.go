package main

import (
	"os"
	"path/filepath"
)

// sharedDir returns the absolute path of ../shared beside the project root,
// where CI places the specifications and the corpus.
func sharedDir() (string, error) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "..", "shared"))
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(dir, "corpus")); err != nil {
		return "", err
	}
	return dir, nil
}
