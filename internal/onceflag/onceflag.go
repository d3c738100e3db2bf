// Package onceflag refuses a flag that holds one value when the command
// line gives it twice: the flag packages take the last value without a
// word, and a script that appends `--out b.svg` to a line that already
// names `--out a.svg` would write elsewhere than its reader thinks.
//
// It holds the one wording of that refusal (RepeatedError), which aepflow
// (pflag), aepflow-hook and aepflow-render (the standard flag package)
// print, and the wrapper of a standard flag.FlagSet (Guard); aepflow wraps
// its pflag values itself, with RepeatedError. It is not a flag parser.
package onceflag

import (
	"errors"
	"flag"
	"fmt"
	"slices"
)

// RepeatedError is a single-valued flag given twice on one command line.
type RepeatedError struct {
	// Name is the flag's name, without dashes.
	Name string
	// First and Second are the values it was given, in order.
	First, Second string
}

// Error words the refusal, naming both values when they differ.
func (e *RepeatedError) Error() string {
	if e.First == e.Second {
		return fmt.Sprintf("--%s is given twice; give it once", e.Name)
	}
	return fmt.Sprintf("--%s is given twice (%q, then %q); it takes one value, so give it once", e.Name, e.First, e.Second)
}

// Guarded is a flag.FlagSet whose single-valued flags refuse a second
// occurrence (see Guard).
type Guarded struct {
	err *RepeatedError
}

// Guard makes every flag defined on fs so far refuse a second occurrence,
// except the repeatable ones named (which take any number of values). The
// flag package rewords the error of a value's Set, so after a failed
// Parse the caller asks the returned Guarded for the refusal (Err).
func Guard(fs *flag.FlagSet, repeatable ...string) *Guarded {
	g := &Guarded{}
	fs.VisitAll(func(f *flag.Flag) {
		if !slices.Contains(repeatable, f.Name) {
			f.Value = &value{Value: f.Value, name: f.Name, guard: g}
		}
	})
	return g
}

// Err returns the *RepeatedError the last Parse stopped at, or nil when it
// stopped at none.
func (g *Guarded) Err() error {
	if g.err == nil {
		return nil
	}
	return g.err
}

// As reports whether err is, or wraps, a *RepeatedError.
func As(err error) (*RepeatedError, bool) {
	var r *RepeatedError
	ok := errors.As(err, &r)
	return r, ok
}

// value is a flag's value that refuses a second Set.
type value struct {
	flag.Value
	name  string
	first string
	set   bool
	guard *Guarded
}

func (v *value) Set(s string) error {
	if v.set {
		v.guard.err = &RepeatedError{Name: v.name, First: v.first, Second: s}
		return v.guard.err
	}
	v.set, v.first = true, s
	return v.Value.Set(s)
}

// IsBoolFlag keeps a boolean flag one that takes no value.
func (v *value) IsBoolFlag() bool {
	b, ok := v.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// Get is the wrapped value's (flag.Getter), so that the flag's type can
// still be told (flagword); nil when it has none.
func (v *value) Get() any {
	if v == nil || v.Value == nil {
		return nil
	}
	if g, ok := v.Value.(flag.Getter); ok {
		return g.Get()
	}
	return nil
}

// String is the wrapped value's; the zero value (which the flag package
// makes to tell a default from a zero) has none and says "".
func (v *value) String() string {
	if v == nil || v.Value == nil {
		return ""
	}
	return v.Value.String()
}

// PrintDefaults prints fs's flags as fs.PrintDefaults does, with the
// values Guard wrapped unwrapped while it prints, so that each default is
// judged against its own type's zero (a boolean's false is not printed as
// a default).
func PrintDefaults(fs *flag.FlagSet) {
	wrapped := map[*flag.Flag]*value{}
	fs.VisitAll(func(f *flag.Flag) {
		if v, ok := f.Value.(*value); ok {
			wrapped[f] = v
			f.Value = v.Value
		}
	})
	defer func() {
		for f, v := range wrapped {
			f.Value = v
		}
	}()
	fs.PrintDefaults()
}
