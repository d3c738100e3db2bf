// Package buildinfo says what an aepflow binary was built from, as Go
// recorded it in the binary: the module version, the VCS commit and its
// time, whether the work tree was modified, and the Go version. Both
// binaries print it for `--version`; it is not for anything that changes
// behaviour.
package buildinfo

import (
	"runtime/debug"
	"strings"
)

// Info describes a binary. Version is a release tag, a pseudo-version, or
// "devel" for a build from a work tree; Commit and Date are empty when the
// build recorded no VCS information (`go install module@version`, or
// -buildvcs=false).
type Info struct {
	Version  string `json:"version"`
	Commit   string `json:"commit,omitempty"`
	Date     string `json:"date,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	Go       string `json:"go"`
}

// Read returns the running binary's build information.
func Read() Info {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return Info{Version: "devel"}
	}
	return From(info)
}

// From extracts an Info from Go's build information.
func From(info *debug.BuildInfo) Info {
	b := Info{Version: "devel", Go: info.GoVersion}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		b.Version = v
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Commit = s.Value
		case "vcs.time":
			b.Date = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	return b
}

// Line is the one-line form `--version` prints for the binary name:
// "aepflow v1.2.0 (commit 1a2b3c4d5e6f, 2026-12-01T10:00:00Z, go1.26.8)".
func (b Info) Line(name string) string {
	var parts []string
	if b.Commit != "" {
		c := "commit " + b.Commit[:min(len(b.Commit), 12)]
		if b.Modified {
			c += " (modified)"
		}
		parts = append(parts, c)
	}
	if b.Date != "" {
		parts = append(parts, b.Date)
	}
	if b.Go != "" {
		parts = append(parts, b.Go)
	}
	s := name + " " + b.Version
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	return s
}
