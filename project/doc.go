// Package project reads AEP project and run directories, strictly
// read-only (engine.md §7): project discovery (`<eng>/project.yaml`, with
// the engineering directory named by AEP_PROJECT_DIR, default
// `.engineering`), the locations project.yaml names, run ids `<task>/<n>`
// and their directories, and a run's committed state — the state.json
// generation pointer with sha256-checked manifests, or the legacy
// snapshot+cursor layout read in memory — with its optional launch.json.
//
// It is the one reader of these directories: `aepflow drive transition`
// (package transition) and the run overlay of `aepflow render` (package
// render) both go through it.
//
// It is not for deciding anything: it hands back bytes and locations, and
// neither decodes the snapshot (engine.DecodeSnapshot does) nor interprets
// the cursor. It is not for writing anything: it never creates, renames,
// locks, migrates or writes a file, and keeps no state between calls.
package project
