package main

import (
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// placeholder is what a flag's help may show for its value: a name in
// capitals (`DIR`, `FILE|ID`, `TASK/N`), never a value lifted from the
// description (`--id adp/default`).
var placeholder = regexp.MustCompile(`^[A-Z][A-Z0-9_]*(?:[|/][A-Z][A-Z0-9_]*)*$`)

// TestFlagVocabulary walks every command: each visible flag that takes a
// value names it with a placeholder, each command that prints has --format
// (except the hook, whose output the protocol fixes, and the commands that
// write a file and print its path), and --format completes its values.
func TestFlagVocabulary(t *testing.T) {
	root := newRootCmd(strings.NewReader(""), io.Discard, io.Discard)
	noFormat := map[string]string{
		"aepflow drive transition": "the hook's output is fixed by its protocol",
		"aepflow hooks":            "writes a file and prints its path",
		"aepflow lsp":              "speaks the Language Server Protocol; its output is fixed by the protocol",
	}
	for _, c := range verbs(root) {
		path := c.CommandPath()
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if f.Hidden || f.Name == "help" || f.Value.Type() == "bool" {
				return
			}
			if name, _ := pflag.UnquoteUsage(f); !placeholder.MatchString(name) {
				t.Errorf("%s --%s shows %q for its value; want a placeholder in capitals", path, f.Name, name)
			}
		})
		if _, exempt := noFormat[path]; exempt {
			return
		}
		f := c.Flags().Lookup("format")
		if f == nil {
			t.Errorf("%s has no --format", path)
			return
		}
		if _, ok := c.GetFlagCompletionFunc("format"); !ok {
			t.Errorf("%s --format does not complete its values", path)
		}
	}
}

// verbs returns the commands under root a user runs for their output: not
// a group (drive, trace), which runs only to refuse a missing or unknown
// verb and prints nothing a flag could shape, nor help, cobra's
// completion verbs (named by their format, the shell) or hidden ones.
func verbs(root *cobra.Command) []*cobra.Command {
	var out []*cobra.Command
	visitCommands(root, func(c *cobra.Command) {
		if !c.Runnable() || c.HasSubCommands() || c.Hidden || c.Name() == "help" || c.Name() == "completion" || c.HasParent() && c.Parent().Name() == "completion" || strings.HasPrefix(c.Name(), "__") {
			return
		}
		out = append(out, c)
	})
	return out
}

// TestOutFormatDefault walks every command that takes both --out and
// --format: where --out's extension names the format, its help says so
// and shows no second default. analyze, diff and simulate printed
// `(default: the one --out's extension names, else text) (default "text")`,
// and render and trace evidence `(default "svg")` and `(default "yaml")`,
// which an --out named .png or .json contradicts.
func TestOutFormatDefault(t *testing.T) {
	root := newRootCmd(strings.NewReader(""), io.Discard, io.Discard)
	// instruct writes Markdown only: no extension chooses for it.
	oneFormat := map[string]bool{"aepflow instruct": true}
	visitCommands(root, func(c *cobra.Command) {
		path := c.CommandPath()
		format, out := c.LocalFlags().Lookup("format"), c.LocalFlags().Lookup("out")
		if format == nil || out == nil || oneFormat[path] {
			return
		}
		fs := pflag.NewFlagSet(path, pflag.ContinueOnError)
		fs.AddFlag(format)
		line := fs.FlagUsages()
		if !strings.Contains(line, "(default: the one --out's extension names, else ") {
			t.Errorf("%s --format does not say that --out's extension names the format:\n%s", path, line)
		}
		if strings.Contains(line, `(default "`) {
			t.Errorf("%s --format shows a second default:\n%s", path, line)
		}
	})
}

// TestUsageLineNamesFlags walks every command: its usage line names each
// of its visible flags, as its page's synopsis does. flow's left out
// --workflow, --max-attempts and --format, hooks' --via, render's
// --timeout, evaluate's --facts, diff's --format and --out, schema's
// --format, and drive transition's named none.
func TestUsageLineNamesFlags(t *testing.T) {
	root := newRootCmd(strings.NewReader(""), io.Discard, io.Discard)
	for _, c := range verbs(root) {
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if f.Hidden || f.Name == "help" {
				return
			}
			if !regexp.MustCompile(`--` + regexp.QuoteMeta(f.Name) + `\b`).MatchString(c.Use) {
				t.Errorf("%s: the usage line %q does not name --%s", c.CommandPath(), c.Use, f.Name)
			}
		})
	}
}
