// Package conformance is aepflow's end-to-end suite. Its tests build the
// binaries, aepflow, aepflow-hook and aepflow-render, once (TestMain, into
// a temporary directory) and run every capability as a user does: validate,
// flow, plan, hooks, render, evaluate, drive transition (and aepflow-hook)
// and trace, each a
// command with arguments, standard input, an exit code, standard output and
// error, and the files it writes. Cases run against the project's own
// fixture trees (../testdata) and against the shared specifications and
// corpus (../shared); the corpus cases all skip, with one message, where
// ../shared is absent (set AEPFLOW_SHARED to point elsewhere).
//
// The suite also holds the checks that judge the packages against the
// corpus through their API where a command does not show enough (a
// workflow's layout numbers, a transcript's census, the reference flows'
// bodies): those are Cases with a Check and no Steps.
//
// The package holds no code outside its tests; this file is its
// documentation.
//
// # Running it
//
//	go test ./conformance                       # everything
//	go test ./conformance -run 'TestCorpus/trace' # one capability against the corpus
//	go test ./conformance -run 'TestOwn/render'   # one capability against our fixtures
//	go test ./conformance -update               # rewrite the golden files, then review the diff
//
// TestOwn runs the cases over ../testdata, TestCorpus those over ../shared.
// A case's name is `<capability>/<what>`, so `-run` selects by capability.
//
// # Adding a case
//
// Append a Case to the table of its capability's file (validate_test.go,
// flow_test.go, …, one file per command; a new command gets a new file with
// its own table registered in an init function, see register):
//
//	{Name: "lsp/hover-state", Steps: []Step{{
//		Args:   []string{"aepflow", "lsp", "--stdio"},
//		Stdin:  "…",
//		Exit:   0,
//		Golden: "lsp/hover-state.stdout",
//	}}},
//
// Set Shared for a case that reads ../shared. In Args, Stdin and the paths
// a case names, $SHARED is ../shared, $TESTDATA the project's ../testdata,
// $WORK the case's own empty working directory (the commands run there),
// and $BIN the directory holding the built binaries. Steps run in order in
// one work directory, so a later step may read what an earlier one wrote;
// Setup, when set, prepares the work directory first.
//
// Each Step asserts its exit code always, and then: Golden, the exact
// standard output, compared with testdata/<Golden> after the absolute
// paths above are folded back into $SHARED, $TESTDATA, $WORK and $BIN (run
// with -update to write it, and review it as a diff); Stdout and Stderr,
// regular expressions (multi-line mode) each must match; NoStdout and
// NoStderr, that nothing was printed; Files, files the step must have
// written under $WORK, each compared with its golden; Then, any further
// assertion on the result. A fixture more than one package uses lives in
// ../testdata; a golden this suite alone reads lives in testdata/.
package conformance
