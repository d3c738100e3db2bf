// Package flagword words the usage errors of flags one way for the three
// programs: aepflow (pflag, through cobra), aepflow-hook and
// aepflow-render (the standard flag package). Each program's parser reports
// its own words ("flag provided but not defined: -x", "invalid value "5x"
// for flag -timeout: parse error"); a person who mistypes a flag reads the
// same sentence whichever program it was:
//
//	unknown flag --fromat; did you mean --format?
//	unknown shorthand flag -x
//	--out needs a value
//	invalid value "5x" for --timeout: want a duration such as 30s or 2m
//	--out must not be empty
//
// Std rewords an error of flag.FlagSet.Parse and StdEmpty refuses an empty
// string value; aepflow calls the wording functions from its pflag error
// handler. A flag given twice is package onceflag's.
package flagword

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/aepflow/aepflow/internal/suggest"
)

// Unknown is the error of an unknown flag --name, with a did-you-mean
// among names when one is close.
func Unknown(name string, names []string) error {
	msg := "unknown flag --" + name
	if best, ok := suggest.Closest(name, names); ok {
		msg += "; did you mean --" + best + "?"
	}
	return errors.New(msg)
}

// UnknownShorthand is the error of an unknown one-letter flag -name.
func UnknownShorthand(name string) error {
	return fmt.Errorf("unknown shorthand flag -%s", name)
}

// NeedsValue is the error of a flag given without the value it takes.
func NeedsValue(name string) error {
	return fmt.Errorf("--%s needs a value", name)
}

// Invalid is the error of a value the flag --name cannot take; typ is the
// flag's type as pflag names it (Describe says what it takes).
func Invalid(value, name, typ string) error {
	return fmt.Errorf("invalid value %q for --%s: want %s", value, name, Describe(typ))
}

// Empty is the error of a string flag given the empty value: no command
// takes one on purpose, and reading it as "not given" would run on the
// default (docs/decisions.md).
func Empty(name string) error {
	return fmt.Errorf("--%s must not be empty", name)
}

// Describe says what a flag of a pflag value type takes.
func Describe(typ string) string {
	switch typ {
	case "bool":
		return "true or false"
	case "int", "int8", "int16", "int32", "int64":
		return "an integer"
	case "uint8":
		return "a whole number from 0 to 255"
	case "uint16":
		return "a whole number from 0 to 65535"
	case "uint32":
		return "a whole number from 0 to 4294967295"
	case "uint", "uint64":
		return "a whole number from 0 to 18446744073709551615"
	case "count":
		return "a whole number from 1 to 4294967295"
	case "duration":
		return "a duration such as 30s or 2m"
	}
	return "a " + typ
}

// Std rewords err, returned by fs.Parse, in the words above; an error it
// does not know (bad flag syntax, flag.ErrHelp) is returned as it is. The
// flag package reports a name without its dashes and a value quoted, so
// both are read back from its message.
func Std(err error, fs *flag.FlagSet) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		if len([]rune(name)) == 1 {
			return UnknownShorthand(name)
		}
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		return Unknown(name, names)
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return NeedsValue(name)
	}
	for _, prefix := range []string{"invalid value ", "invalid boolean value "} {
		rest, ok := strings.CutPrefix(msg, prefix)
		if !ok {
			continue
		}
		quoted, err := strconv.QuotedPrefix(rest)
		if err != nil {
			break
		}
		value, _ := strconv.Unquote(quoted)
		rest = strings.TrimPrefix(strings.TrimPrefix(rest[len(quoted):], " for flag -"), " for -")
		name, _, ok := strings.Cut(rest, ": ")
		if f := fs.Lookup(name); ok && f != nil {
			return Invalid(value, name, stdType(f))
		}
	}
	return err
}

// StdEmpty returns Empty for the first string flag fs's command line gave
// the empty value, or nil. A flag's type is told by its flag.Getter (the
// flag package's own values, and onceflag's wrapping of them); one without
// (a flag.Func) is the caller's to check.
func StdEmpty(fs *flag.FlagSet) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		if g, ok := f.Value.(flag.Getter); ok && err == nil {
			if s, ok := g.Get().(string); ok && s == "" {
				err = Empty(f.Name)
			}
		}
	})
	return err
}

// stdType names the type of a standard flag's value as pflag names it
// ("duration", "bool", …), from its flag.Getter; "value" when it has none.
func stdType(f *flag.Flag) string {
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return "value"
	}
	switch g.Get().(type) {
	case bool:
		return "bool"
	case time.Duration:
		return "duration"
	case int:
		return "int"
	case int64:
		return "int64"
	case uint:
		return "uint"
	case uint64:
		return "uint64"
	case float64:
		return "float64"
	case string:
		return "string"
	}
	return "value"
}
