package flow

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"unicode/utf8"

	"github.com/aepflow/aepflow/diag"
)

// Hook points of the harness's hooks file (flow-format.md §6).
const (
	HookBeforeCall = "before-call"
	HookAfterCall  = "after-call"
	HookStop       = "stop"
	HookTransition = "transition"
)

// Hooks is the harness's hooks file: version 1 and its entries in order.
type Hooks struct {
	Version int    `json:"version"`
	Hooks   []Hook `json:"hooks"`
}

// Hook is one entry: the point it runs at, its argv, and for before-call
// and after-call optionally the tool entries it applies to.
type Hook struct {
	On      string   `json:"on"`
	Command []string `json:"command"`
	Tools   []string `json:"tools,omitempty"`
}

// TransitionHooks returns the hooks file that wires one transition hook
// with argv command, the shape `aepflow hooks` writes.
func TransitionHooks(command []string) *Hooks {
	return &Hooks{Version: 1, Hooks: []Hook{{On: HookTransition, Command: command}}}
}

// WriteHooks writes h as indented JSON ending with "\n". A string that is
// not UTF-8 text (a path holding the byte 0xff, which Linux allows) is
// refused: JSON cannot carry it, and encoding/json would write U+FFFD in
// its place, so the harness would run the hook on another path.
func WriteHooks(w io.Writer, h *Hooks) error {
	for i, hk := range h.Hooks {
		for _, s := range slices.Concat([]string{hk.On}, hk.Command, hk.Tools) {
			if !utf8.ValidString(s) {
				return fmt.Errorf("hooks[%d]: %q is not UTF-8 text, which a JSON hooks file cannot carry", i, s)
			}
		}
	}
	data, err := json.MarshalIndent(h, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// ReadHooks decodes and validates a hooks file as strictly as the harness
// (flow-format.md §6): unknown keys refused at both levels, `version` 1,
// `on` one of the four points, `command` a non-empty array of strings, and
// `tools` (non-empty) only on before-call and after-call. Problems are
// hooks_invalid diagnostics.
func ReadHooks(file string, data []byte) (*Hooks, diag.List) {
	bad := func(format string, args ...any) (*Hooks, diag.List) {
		return nil, diag.List{diag.Errorf("hooks_invalid", format, args...).InFile(file)}
	}
	if err := exactKeys(data, "hooks", "version"); err != nil {
		return bad("hooks file is not valid: %v", err)
	}
	var entries struct {
		Hooks []json.RawMessage `json:"hooks"`
	}
	_ = json.Unmarshal(data, &entries) // shape errors are reported below
	for i, e := range entries.Hooks {
		if err := exactKeys(e, "command", "on", "tools"); err != nil {
			return bad("hooks[%d] is not valid: %v", i, err)
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var raw struct {
		Version *int `json:"version"`
		Hooks   *[]struct {
			On      *string   `json:"on"`
			Command *[]string `json:"command"`
			Tools   *[]string `json:"tools"`
		} `json:"hooks"`
	}
	if err := dec.Decode(&raw); err != nil {
		return bad("hooks file is not valid: %v", err)
	}
	if dec.More() {
		return bad("hooks file holds data after its object")
	}
	if raw.Version == nil || *raw.Version != 1 {
		return bad("`version` must be 1")
	}
	if raw.Hooks == nil {
		return bad("`hooks` is required")
	}
	points := []string{HookAfterCall, HookBeforeCall, HookStop, HookTransition}
	h := &Hooks{Version: 1, Hooks: []Hook{}}
	for i, e := range *raw.Hooks {
		if e.On == nil || !slices.Contains(points, *e.On) {
			return bad("hooks[%d]: `on` must be one of `after-call`, `before-call`, `stop`, `transition`", i)
		}
		if e.Command == nil || len(*e.Command) == 0 {
			return bad("hooks[%d]: `command` must be a non-empty array of strings", i)
		}
		hk := Hook{On: *e.On, Command: *e.Command}
		if e.Tools != nil {
			if *e.On != HookBeforeCall && *e.On != HookAfterCall {
				return bad("hooks[%d]: `tools` is allowed only on `before-call` and `after-call`, not on `%s`", i, *e.On)
			}
			if len(*e.Tools) == 0 {
				return bad("hooks[%d]: `tools` must not be empty", i)
			}
			hk.Tools = *e.Tools
		}
		h.Hooks = append(h.Hooks, hk)
	}
	return h, nil
}

// exactKeys refuses keys outside allowed, compared exactly (encoding/json
// alone would match struct fields case-insensitively).
func exactKeys(data []byte, allowed ...string) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	keys := slices.Sorted(maps.Keys(m))
	for _, k := range keys {
		if !slices.Contains(allowed, k) {
			return fmt.Errorf("unknown key `%s`", k)
		}
	}
	return nil
}
