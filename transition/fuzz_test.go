package transition

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParseInput: the stdin decoder never panics, and whatever it accepts
// decides without touching a file (hooks other than transition, bad
// moments and failed leaves answer before step 6).
func FuzzParseInput(f *testing.F) {
	for _, s := range []string{
		doc("root.implement", "enter"), leaveDoc("root.establish_verifiers", true), `{"hook":"before-call"}`,
		"this is not JSON", `{"hook":"transition","moment":"between"}`, `{"hook":1}`, `{"hook":"t"} x`,
		`{"hook":"t","handoff":{"a":[1,2,{"b":null}]},"failed":false}`, `{"hook":"t","hook":"t"}`, "",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := ParseInput(data)
		if err != nil {
			if in.Hook != "" && strings.Contains(err.Error(), "missing") {
				t.Errorf("missing hook reported with hook %q", in.Hook)
			}
			return
		}
		// No project anywhere: only answers of steps 1–5 are possible
		// without one, and they must not need it.
		out := Decide(data, Options{Project: filepath.Join(t.TempDir(), "none"), Getenv: func(string) string { return "" }})
		switch {
		case in.Hook != "transition" || (in.Moment == Leave && in.Failed):
			if out.Kind != Proceed {
				t.Errorf("%q: %+v, want proceed", data, out)
			}
		case in.Moment != Enter && in.Moment != Leave:
			if out.Kind != Cannot || !strings.Contains(out.Message, "moment") {
				t.Errorf("%q: %+v, want cannot (moment)", data, out)
			}
		default:
			if out.Kind != Cannot || !strings.Contains(out.Message, "no project") {
				t.Errorf("%q: %+v, want cannot (no project)", data, out)
			}
		}
		if strings.ContainsAny(out.Message, "\r\n") {
			t.Errorf("multi-line message %q", out.Message)
		}
	})
}

// FuzzReadRun: the run reader never panics and never writes, whatever
// state.json, the manifest, the snapshot and launch.json hold; a run it
// accepts hashes as its manifest says.
func FuzzReadRun(f *testing.F) {
	snap := []byte(`{"execution":"DRIVE-1.1","task":"DRIVE-1","state":"establish_verifiers","entered":["receive"],"evidence":[],"events":[],"next_seq":1,"actor":"system"}` + "\n")
	man := []byte(`{"format":"aep.driver-state-generation/1","generation":1,"snapshot_sha256":"` + sha(snap) + `","cursor_sha256":"` + sha(cursorBytes) + `"}`)
	state := []byte(`{"format":"aep.driver-state-current/1","generation":1,"manifest_sha256":"` + sha(man) + `"}`)
	f.Add(state, man, snap, []byte(`{"root":"x"}`), true)
	f.Add([]byte(`{}`), man, snap, []byte(``), false)
	f.Add([]byte(`{"format":"aep.driver-state-current/1","generation":18446744073709551615,"manifest_sha256":""}`), man, snap, []byte(`[]`), true)
	f.Fuzz(func(t *testing.T, state, man, snap, launch []byte, withState bool) {
		dir := t.TempDir()
		run := filepath.Join(dir, "runs", "T", "1")
		if withState {
			writeFile(t, filepath.Join(run, "state.json"), state)
		}
		writeFile(t, filepath.Join(run, "generations", "1", "manifest.json"), man)
		writeFile(t, filepath.Join(run, "generations", "1", "snapshot.json"), snap)
		writeFile(t, filepath.Join(run, "generations", "1", "cursor.json"), cursorBytes)
		writeFile(t, filepath.Join(run, "snapshot.json"), snap)
		if len(launch) > 0 {
			writeFile(t, filepath.Join(run, "launch.json"), launch)
		}
		before := treeHash(t, dir)
		r, err := ReadRun(run, RunID{"T", 1})
		if treeHash(t, dir) != before {
			t.Fatal("ReadRun changed the run directory")
		}
		if err != nil {
			if r != nil {
				t.Errorf("a run and an error: %v", err)
			}
			return
		}
		if withState && (r.Layout != LayoutGeneration || sha(man) != manifestDigest(state)) {
			t.Errorf("accepted a generation whose manifest digest differs: %+v", r)
		}
		if !withState {
			t.Errorf("accepted a legacy run without cursor.json")
		}
	})
}

// manifestDigest decodes state.json's manifest digest as the reader does.
func manifestDigest(state []byte) string {
	var v struct {
		D string `json:"manifest_sha256"`
	}
	_ = json.Unmarshal(state, &v)
	return v.D
}
