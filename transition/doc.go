// Package transition answers the b10x harness's transition hook: the
// `aepflow drive transition` verb (engine.md §7–§9, flow-format.md §7).
//
// It owns the hook's stdin document, the mapping of a flow group path to a
// workflow state, and the decision procedure itself, whose answer is
// PROCEED, REFUSE(reason) or CANNOT(message). It finds the project and reads
// the run through package project, the strictly read-only reader of project
// and run directories, decodes the run's snapshot with package engine, and
// resolves an explicit --map with packages stepmap and tree.
//
// It is not the engine (package engine evaluates and moves executions) and
// it is not a driver: it never creates, renames, locks or writes a file, and
// it keeps no state between consultations. Flags, exit codes and printing
// belong to cmd/aepflow.
package transition
