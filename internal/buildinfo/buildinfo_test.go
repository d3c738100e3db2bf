package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestLine(t *testing.T) {
	info := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.0"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "1a2b3c4d5e6f7a8b9c0d"}, {Key: "vcs.time", Value: "2026-12-01T10:00:00Z"}, {Key: "vcs.modified", Value: "true"},
	}}
	if got, want := From(info).Line("aepflow"), "aepflow v1.2.0 (commit 1a2b3c4d5e6f (modified), 2026-12-01T10:00:00Z, go1.26.8)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	bare := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}}
	if got, want := From(bare).Line("aepflow-render"), "aepflow-render devel (go1.26.8)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if Read().Go == "" {
		t.Error("a test binary has build information")
	}
}
