package main

// The transition hook's packages are imported here, in the file the
// compiler reads first, so that the linker, which lays out a program's
// code in the order its packages are first imported, keeps the code of
// `aepflow drive transition` together at the start of the binary, ahead of
// the packages only other commands use. The harness starts one process per
// consultation, and the pages of the binary a process touches count in its
// memory: on a kernel that maps page-cache folios whole, code spread over
// the binary is mapped almost whole (bench/transition.md).
import (
	_ "github.com/aepflow/aepflow/transition"
	_ "github.com/spf13/cobra"
)
