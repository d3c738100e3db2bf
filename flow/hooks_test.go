package flow

import (
	"bytes"
	"strings"
	"testing"
)

func TestHooksRoundTrip(t *testing.T) {
	h := TransitionHooks([]string{"/bin/aepflow", "drive", "transition", "--project", "/p"})
	var b bytes.Buffer
	if err := WriteHooks(&b, h); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "tools") {
		t.Errorf("transition hook written with tools:\n%s", b.String())
	}
	got, ds := ReadHooks("h.json", b.Bytes())
	if ds != nil || len(got.Hooks) != 1 || got.Hooks[0].Command[4] != "/p" {
		t.Fatalf("got %+v %v", got, ds)
	}
}

func TestReadHooksRefusals(t *testing.T) {
	for name, src := range map[string]string{
		"version 2":       `{"version": 2, "hooks": []}`,
		"no version":      `{"hooks": []}`,
		"no hooks":        `{"version": 1}`,
		"unknown top key": `{"version": 1, "hooks": [], "x": 1}`,
		"case variant":    `{"Version": 1, "hooks": []}`,
		"unknown entry":   `{"version": 1, "hooks": [{"on": "stop", "command": ["x"], "when": 1}]}`,
		"bad point":       `{"version": 1, "hooks": [{"on": "start", "command": ["x"]}]}`,
		"empty command":   `{"version": 1, "hooks": [{"on": "stop", "command": []}]}`,
		"tools on stop":   `{"version": 1, "hooks": [{"on": "transition", "command": ["x"], "tools": ["run"]}]}`,
		"empty tools":     `{"version": 1, "hooks": [{"on": "before-call", "command": ["x"], "tools": []}]}`,
		"non-string argv": `{"version": 1, "hooks": [{"on": "stop", "command": [1]}]}`,
		"trailing":        `{"version": 1, "hooks": []} {}`,
	} {
		if _, ds := ReadHooks("h.json", []byte(src)); len(ds) != 1 || ds[0].Code != "hooks_invalid" {
			t.Errorf("%s: accepted or wrong code: %v", name, ds)
		}
	}
	ok := `{"version": 1, "hooks": [{"on": "before-call", "command": ["x"], "tools": ["run"]}, {"on": "stop", "command": ["y"]}]}`
	if _, ds := ReadHooks("h.json", []byte(ok)); ds != nil {
		t.Errorf("valid file refused: %v", ds)
	}
}

// TestWriteHooksRefusesNonUTF8: JSON cannot carry a string that is not
// UTF-8 text; encoding/json wrote U+FFFD in its place, naming another path.
func TestWriteHooksRefusesNonUTF8(t *testing.T) {
	var b bytes.Buffer
	err := WriteHooks(&b, TransitionHooks([]string{"/bin/aepflow", "drive", "transition", "--project", "/p\xffq"}))
	if err == nil || !strings.Contains(err.Error(), `"/p\xffq" is not UTF-8 text`) || b.Len() != 0 {
		t.Errorf("err %v, wrote %q", err, b.String())
	}
}
