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

func main() { runMain(os.Args[1:]) }

// runMain runs the command line args and ends the process with its exit
// code, the stop handler installed first where the command needs it.
func runMain(args []string) {
	if needsStopHandler(args) {
		handleStop()
	}
	stopsig.Exit(run(args, os.Stdin, os.Stdout, os.Stderr))
}

// needsStopHandler reports whether the command line args may leave
// something to clean up on a stop signal. `aepflow drive` (the transition
// hook, one process per consultation) writes no file and runs no
// companion: a stop signal's default action, death by it, is what the
// handler would end in too, and not installing it spares each
// consultation the thread Go starts to watch for signals.
func needsStopHandler(args []string) bool { return len(args) == 0 || args[0] != "drive" }

// handleStop installs what aepflow does when it is told to stop (SIGINT,
// SIGTERM, SIGHUP) before it dies of the signal: remove the temporary file
// of a write in flight, and kill the aepflow-render companion it runs.
func handleStop() { stopsig.Handle(fsio.RemoveTemps, killCompanions) }
