// Command aepflow is the AEP toolchain: it validates AEP document trees,
// projects workflows into b10x flow documents, checks and plans flow
// documents, renders workflows, evaluates tasks, answers the harness's
// transition hook and judges agent transcripts.
//
// This package holds cobra commands only: flags, reading and writing files,
// and exit codes. Everything else lives in the packages it calls.
package main

import (
	"os"

	"github.com/aepflow/aepflow/internal/fsio"
	"github.com/aepflow/aepflow/internal/stopsig"
)

func main() {
	handleStop()
	stopsig.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// handleStop installs what aepflow does when it is told to stop (SIGINT,
// SIGTERM, SIGHUP) before it dies of the signal: remove the temporary file
// of a write in flight, and kill the aepflow-render companion it runs.
func handleStop() { stopsig.Handle(fsio.RemoveTemps, killCompanions) }
