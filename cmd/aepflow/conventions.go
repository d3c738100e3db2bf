package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/internal/flagword"
	"github.com/aepflow/aepflow/internal/onceflag"
	"github.com/aepflow/aepflow/internal/suggest"
)

// This file holds the conventions every command shares: colour, the one
// wording of a bad enum value, a missing required flag and a bad flag, and
// the did-you-mean of flags and values.

// colorModes lists the values of --color.
var colorModes = []string{"auto", "always", "never"}

// colorMode is the --color value of the running command line; run resets
// it for each command line.
var colorMode = "auto"

// addColorFlag adds the persistent --color flag to the root command.
func addColorFlag(root *cobra.Command) {
	root.PersistentFlags().StringVar(&colorMode, "color", "auto",
		"colour diagnostics: `WHEN` = auto (on a terminal, unless NO_COLOR is set), always or never")
	_ = root.RegisterFlagCompletionFunc("color", fixedCompletion(colorModes...))
}

// checkColor validates --color before a command runs; the hook's usage
// errors exit 1 with one line, as its protocol fixes.
func checkColor(cmd *cobra.Command, _ []string) error {
	err := checkEnum("color", colorMode, colorModes)
	if err != nil && cmd.Annotations[hookAnnotation] != "" {
		return exitWith(hookCannot, fmt.Errorf("drive transition: %v", errors.Unwrap(err)))
	}
	return err
}

// useColor reports whether text printed to w gets ANSI colours: always
// with --color always, never with --color never; with auto, only on a
// terminal, and not when NO_COLOR is set to anything (no-color.org) or
// TERM is dumb.
func useColor(w io.Writer) bool {
	switch colorMode {
	case "always":
		return true
	case "never":
		return false
	}
	if os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return false
	}
	return isTerminal(w)
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := osFile(w)
	return ok && term.IsTerminal(int(f.Fd()))
}

// writeText prints diagnostics as text on w, coloured when useColor says
// so.
func writeText(w io.Writer, ds diag.List, sources diag.Sources) error {
	return diag.TextOptions{Color: useColor(w)}.Write(w, ds, sources)
}

// checkRootDir refuses, as a usage error with one wording, a --root that is
// not a directory (missing, a file, a pipe, a device): no tree can be read
// from it, and reading one would only add Go's "lstat … not a directory"
// for each of its rows.
func checkRootDir(root string) error {
	if info, err := os.Stat(root); err != nil || !info.IsDir() {
		return usageError("--root %q is not a directory", root)
	}
	return nil
}

// checkEnum refuses a flag value outside allowed with the one wording of
// a bad enum value: `unknown --format "yml" (want one of text, json,
// sarif); did you mean "json"?`.
func checkEnum(flag, value string, allowed []string) error {
	if slices.Contains(allowed, value) {
		return nil
	}
	return usageError("%s", enumMessage("--"+flag, value, allowed))
}

// enumMessage words a value outside allowed for what (a flag, or an
// argument's name).
func enumMessage(what, value string, allowed []string) string {
	msg := fmt.Sprintf("unknown %s %q (want one of %s)", what, value, strings.Join(allowed, ", "))
	if best, ok := suggest.Closest(value, allowed); ok {
		msg += fmt.Sprintf("; did you mean %q?", best)
	}
	return msg
}

// requireFlags refuses a command line that lacks one of the named flags,
// with the one wording of a missing required flag: "--task is required",
// "--spec and --transcript are required".
func requireFlags(cmd *cobra.Command, names ...string) error {
	var missing []string
	for _, n := range names {
		// A flag given as "" never gets here: emptyFlags refused it.
		if f := cmd.Flags().Lookup(n); f != nil && !f.Changed {
			missing = append(missing, "--"+n)
		}
	}
	switch len(missing) {
	case 0:
		return nil
	case 1:
		return usageError("%s is required", missing[0])
	}
	return usageError("%s and %s are required", strings.Join(missing[:len(missing)-1], ", "), missing[len(missing)-1])
}

// onceValue is the value of a flag that holds one value: a second
// occurrence on the command line is refused, not taken over the first
// (pflag's way), since a script that appends `--spec strict.yaml` to a
// line that already names one would lose it without a word.
type onceValue struct {
	pflag.Value
	name  string
	first string
	set   bool
}

func (v *onceValue) Set(s string) error {
	if v.set {
		return &onceflag.RepeatedError{Name: v.name, First: v.first, Second: s}
	}
	v.set, v.first = true, s
	return v.Value.Set(s)
}

// onceBoolValue is onceValue for a boolean flag, which takes no value. It
// is a type of its own because pflag reads a value that has IsBoolFlag as
// a boolean's wherever it looks: a count whose default is 0 had its
// `(default 0)` printed in --help, as a boolean's "false" would not be.
type onceBoolValue struct{ onceValue }

// IsBoolFlag keeps a boolean flag one that takes no value.
func (*onceBoolValue) IsBoolFlag() bool { return true }

// onceFlags makes every single-valued flag cmd defines refuse a second
// occurrence; repeatable flags (pflag.SliceValue: --transcript,
// --evidence, …) take any number.
func onceFlags(cmd *cobra.Command) {
	wrap := func(f *pflag.Flag) {
		if _, repeatable := f.Value.(pflag.SliceValue); repeatable {
			return
		}
		switch v := f.Value.(type) {
		case *onceValue, *onceBoolValue:
			return // wrapped already
		case interface{ IsBoolFlag() bool }:
			if v.IsBoolFlag() {
				f.Value = &onceBoolValue{onceValue{Value: f.Value, name: f.Name}}
				return
			}
		}
		f.Value = &onceValue{Value: f.Value, name: f.Name}
	}
	cmd.Flags().VisitAll(wrap)
	cmd.PersistentFlags().VisitAll(wrap)
}

// flagError rewords pflag's errors for people: an unknown flag gets a
// did-you-mean among the command's flags, a bad value says what the flag
// takes instead of quoting Go's parser ("strconv.ParseUint: parsing …").
func flagError(cmd *cobra.Command, err error) error {
	var notExist *pflag.NotExistError
	var invalid *pflag.InvalidValueError
	var needs *pflag.ValueRequiredError
	if repeated, ok := onceflag.As(err); ok {
		return repeated // pflag's wrapping words it as a bad value
	}
	switch {
	case errors.As(err, &notExist):
		name := notExist.GetSpecifiedName()
		if notExist.GetSpecifiedShortnames() != "" {
			return flagword.UnknownShorthand(name)
		}
		return flagword.Unknown(name, flagNames(cmd))
	case errors.As(err, &invalid):
		f := invalid.GetFlag()
		return flagword.Invalid(invalid.GetValue(), f.Name, f.Value.Type())
	case errors.As(err, &needs):
		return flagword.NeedsValue(needs.GetFlag().Name)
	}
	return err
}

// flagNames lists the visible flags a command accepts, its own and
// inherited.
func flagNames(cmd *cobra.Command) []string {
	var names []string
	add := func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	}
	cmd.Flags().VisitAll(add)
	cmd.InheritedFlags().VisitAll(add)
	return names
}

// reportExtensions maps the extensions of --out to the report format they
// name, for the commands that print a report (analyze, simulate, diff):
// each accepts the ones among its own formats.
var reportExtensions = map[string]string{
	".json": "json", ".sarif": "sarif", ".md": "markdown", ".markdown": "markdown", ".txt": "text",
}

// formatFromOut returns the format a command writes to --out (issue 11
// item 6): --format when it was given (set), else the one out's extension
// names among formats (by extensions), else format (the default). An
// extension that names another of formats than the --format given is a
// usage error, so that nothing is written; an extension that names none of
// them (or none at all) leaves the format to --format. Standard output
// (out "" or `-`) has no extension.
func formatFromOut(out, format string, set bool, formats []string, extensions map[string]string) (string, error) {
	if out == "" || out == stdio {
		return format, nil
	}
	byName, known := extensions[strings.ToLower(filepath.Ext(out))]
	switch {
	case !known || !slices.Contains(formats, byName) || byName == format:
		return format, nil
	case set:
		return "", contradiction(format, out, byName)
	}
	return byName, nil
}

// outFormatFlag defines --format on a command whose --out's extension
// names the format when --format is not given (formatFromOut). The usage
// states that default in words, and pflag is told the default is empty so
// that it does not print a second one, `(default "text")`, which an
// --out named .json contradicts.
func outFormatFlag(fl *pflag.FlagSet, p *string, def, values string) {
	fl.StringVar(p, "format", def, "output `FORMAT`: "+values+" (default: the one --out's extension names, else "+def+")")
	fl.Lookup("format").DefValue = ""
}

// contradiction is the one wording of a --format that an --out's extension
// contradicts.
func contradiction(format, out, byName string) error {
	return usageError("--format %s contradicts --out %s, which names %s", format, out, byName)
}

// fixedCompletion completes a flag or argument from a fixed list of values.
func fixedCompletion(values ...string) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return filterPrefix(values, prefix), cobra.ShellCompDirectiveNoFileComp
	}
}

// countValue is a flag of a count that starts at one (`--max-attempts`):
// a whole number from 1 to 4294967295, refused otherwise in the words of
// every flag's invalid value (flagword.Describe's "count"). flow and plan
// each checked theirs apart, in words of their own.
type countValue uint32

// String returns the count; 0 (never a value given) reads as unset.
func (c *countValue) String() string { return strconv.FormatUint(uint64(*c), 10) }

// Set reads a decimal count of at least one.
func (c *countValue) Set(s string) error {
	n, err := strconv.ParseUint(s, 10, 32)
	if err != nil || n == 0 {
		return errors.New("not a count")
	}
	*c = countValue(n)
	return nil
}

// Type names the value for flagword.Describe.
func (*countValue) Type() string { return "count" }
