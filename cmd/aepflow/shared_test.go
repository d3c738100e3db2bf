package main

import (
	"github.com/aepflow/aepflow/internal/testshared"
)

// sharedDir returns the absolute path of ../shared beside the project root,
// where CI places the specifications and the corpus.
func sharedDir() (string, error) { return testshared.Find() }
