package project_test

import (
	"path/filepath"
	"testing"

	"github.com/aepflow/aepflow/project"
)

func TestParseRunID(t *testing.T) {
	good := map[string]project.RunID{
		"AUTH-142/3":      {Task: "AUTH-142", N: 3},
		"DRIVE-1/1":       {Task: "DRIVE-1", N: 1},
		"team/AUTH.1/007": {Task: "team/AUTH.1", N: 7},
		"x/4294967295":    {Task: "x", N: 4294967295},
		"a_b/2":           {Task: "a_b", N: 2},
	}
	for in, want := range good {
		got, err := project.ParseRunID(in)
		if err != nil || got != want {
			t.Errorf("ParseRunID(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "DRIVE-1", "DRIVE-1/0", "DRIVE-1/", "/1", "../x/1", "a/../b/1", "/abs/1", "DRIVE-1/+1",
		"DRIVE-1/-1", "DRIVE-1/4294967296", "DRIVE-1/1x", "DRIVE-1.1", "a//b/1", "./a/1", "a/./1", `a\..\b/1`, "x/ 1"} {
		if got, err := project.ParseRunID(in); err == nil {
			t.Errorf("ParseRunID(%q) = %+v, want an error", in, got)
		}
	}
}

func TestRunIDString(t *testing.T) {
	id, err := project.ParseRunID("team/AUTH.1/007")
	if err != nil || id.String() != "team/AUTH.1/7" {
		t.Errorf("String = %q, %v; want the plain number", id.String(), err)
	}
}

func TestRunDir(t *testing.T) {
	runs := filepath.Join("p", ".engineering", "runs")
	dir, err := project.RunDir(runs, project.RunID{Task: "team/A", N: 2})
	if err != nil || dir != filepath.Join(runs, "team", "A", "2") {
		t.Errorf("RunDir = %q, %v", dir, err)
	}
	// ParseRunID never yields these; RunDir refuses them anyway.
	for _, id := range []project.RunID{{Task: "../x", N: 1}, {Task: "a/../../b", N: 1}, {Task: "..", N: 1}} {
		if dir, err := project.RunDir(runs, id); err == nil {
			t.Errorf("RunDir(%v) = %q, want an error", id, dir)
		}
	}
}
