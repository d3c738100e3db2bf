package main

import (
	"os"
	"strconv"
	"testing"

	"github.com/aepflow/aepflow/internal/hookmain"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the test binary act as the aepflow command inside scripts.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"aepflow":      func() { runMain(os.Args[1:]) },
		"aepflow-hook": func() { os.Exit(hookmain.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the CLI scripts under testdata/script: each .txtar file
// holds commands, their expected stdout/stderr and exit codes, and the files
// they read and write. Set UPDATE_SCRIPTS=1 to rewrite expected output.
// The scripts hold their own files; the cases over ../shared are in package
// conformance.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: os.Getenv("UPDATE_SCRIPTS") == "1",
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// mkfifo PATH... makes named pipes, the input that hangs a
			// reader that opens it blocking.
			"mkfifo": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) == 0 {
					ts.Fatalf("usage: mkfifo PATH...")
				}
				for _, a := range args {
					ts.Check(mkfifo(ts.MkAbs(a)))
				}
			},
			// sparse PATH BYTES makes a file of BYTES bytes without
			// writing them: an input over a bound, at no cost.
			"sparse": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 {
					ts.Fatalf("usage: sparse PATH BYTES")
				}
				size, err := strconv.ParseInt(args[1], 10, 64)
				ts.Check(err)
				f, err := os.Create(ts.MkAbs(args[0]))
				ts.Check(err)
				ts.Check(f.Truncate(size))
				ts.Check(f.Close())
			},
		},
	})
}
