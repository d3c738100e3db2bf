package transition

import (
	"fmt"

	"github.com/aepflow/aepflow/internal/flagword"
)

// Flag is one command-line flag of the hook. `aepflow drive transition`
// and the aepflow-hook program both build their flags from Options.Flags,
// so the two accept the same names, values and meanings.
type Flag struct {
	// Name is the flag's name without dashes.
	Name string
	// Usage is its help line; the value's placeholder is in backquotes, as
	// both the standard flag package and pflag read it.
	Usage string
	// String is the Options field a single-valued flag sets; nil for a
	// repeatable one.
	String *string
	// List is the Options field a repeatable flag appends to; nil for a
	// single-valued one.
	List *[]string
}

// Flags returns the hook's flags (engine.md §8.1), each bound to its field
// of o.
func (o *Options) Flags() []Flag {
	return []Flag{
		{Name: "run", Usage: "position on run `TASK/N`'s last committed snapshot", String: &o.Run},
		{Name: "project", Usage: "project `DIR` holding .engineering/ (default: discovered upward)", String: &o.Project},
		{Name: "root", Usage: "document tree `DIR` (default: project.yaml's protocols)", String: &o.Root},
		{Name: "task", Usage: "task document `FILE` (default: the project's task)", String: &o.Task},
		{Name: "store", Usage: "planning store `DIR` (default: the project's store)", String: &o.Store},
		{Name: "map", Usage: "step map `FILE|ID`, checked only when given", String: &o.Map},
		{Name: "plugin-dir", Usage: "plugin `DIR` (repeatable; accepted and ignored)", List: &o.PluginDirs},
	}
}

// Values returns the values the flag holds: the one of a single-valued
// flag, every one of a repeatable flag.
func (f Flag) Values() []string {
	if f.List != nil {
		return *f.List
	}
	return []string{*f.String}
}

// CheckGiven checks the values of the flags given (given reports whether
// a flag of that name was on the command line) with CheckValue, in the
// order of Flags, and returns the first refusal.
func (o *Options) CheckGiven(given func(name string) bool) error {
	for _, fl := range o.Flags() {
		if !given(fl.Name) {
			continue
		}
		for _, v := range fl.Values() {
			if err := CheckValue(fl.Name, v); err != nil {
				return err
			}
		}
	}
	return nil
}

// CheckValue refuses a value given to the flag named name that the hook
// can never mean (engine.md §9): the empty string, which would silently
// mean "the default", and `-`, which every other command reads as stdin
// while the hook's stdin is the harness's JSON.
func CheckValue(name, value string) error {
	switch value {
	case "":
		return flagword.Empty(name)
	case "-":
		return fmt.Errorf("--%s cannot be - (stdin): the hook's stdin is the harness's JSON; give a path", name)
	}
	return nil
}
