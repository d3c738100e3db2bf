// Command aepflow-hook is the b10x harness's transition hook in a binary of
// its own: `aepflow drive transition` without the rest of aepflow, so that
// the process the harness starts for every consultation is small and quick
// (bench/transition.md). `aepflow hooks` names it in the hooks file when it
// is installed beside aepflow. See package internal/hookmain and
// docs/drive.md.
package main

import (
	"os"

	"github.com/aepflow/aepflow/internal/hookmain"
)

func main() { os.Exit(hookmain.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
