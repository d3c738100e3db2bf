// Command aepflow is the AEP toolchain: it validates AEP document trees,
// projects workflows into b10x flow documents, checks and plans flow
// documents, renders workflows, evaluates tasks, answers the harness's
// transition hook and judges agent transcripts.
//
// This package holds cobra commands only: flags, reading and writing files,
// and exit codes. Everything else lives in the packages it calls.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
