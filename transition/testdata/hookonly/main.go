// Command hookonly is a measurement for bench/transition.md, not a tool: the
// transition hook's own code (transition.Consult, as `aepflow drive
// transition --project PROJECT --run RUN` calls it) in a binary that holds
// nothing else: no cobra, no other command. Set beside `aepflow` and the
// floor (../minimal), it shows what the hook costs when the binary is no
// larger than the hook needs. Usage: hookonly PROJECT RUN < stdin.json; it
// exits as the hook does (0 proceed, 2 refuse with the reason on stdout,
// 1 cannot with the message on stderr).
package main

import (
	"os"

	"github.com/aepflow/aepflow/transition"
)

func main() {
	out := transition.Consult(os.Stdin, transition.Options{Project: os.Args[1], Run: os.Args[2]})
	switch out.Kind {
	case transition.Refuse:
		os.Stdout.Write(out.Stdout())
		os.Exit(2)
	case transition.Cannot:
		os.Stderr.WriteString("hookonly: " + out.Message + "\n")
		os.Exit(1)
	}
}
