package transition

import (
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
