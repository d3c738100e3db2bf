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
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			walk(sub)
		}
		// A group (drive, trace) runs only to refuse a missing or unknown
		// verb: it prints nothing a --format could shape. cobra's
		// completion verbs are named by their format (the shell).
		if !c.Runnable() || c.HasSubCommands() || c.Hidden || c.Name() == "help" || c.Name() == "completion" || c.HasParent() && c.Parent().Name() == "completion" || strings.HasPrefix(c.Name(), "__") {
			return
		}
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
	walk(root)
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
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			walk(sub)
		}
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
	}
	walk(root)
}

// TestUsageLineNamesFlags walks every command: its usage line names each
// of its visible flags, as its page's synopsis does. flow's left out
// --workflow, --max-attempts and --format, hooks' --via, render's
// --timeout, evaluate's --facts, diff's --format and --out, schema's
// --format, and drive transition's named none.
func TestUsageLineNamesFlags(t *testing.T) {
	root := newRootCmd(strings.NewReader(""), io.Discard, io.Discard)
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			walk(sub)
		}
		if !c.Runnable() || c.HasSubCommands() || c.Hidden || c.Name() == "help" || c.Name() == "completion" || c.HasParent() && c.Parent().Name() == "completion" || strings.HasPrefix(c.Name(), "__") {
			return
		}
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if f.Hidden || f.Name == "help" {
				return
			}
			if !regexp.MustCompile(`--` + regexp.QuoteMeta(f.Name) + `\b`).MatchString(c.Use) {
				t.Errorf("%s: the usage line %q does not name --%s", c.CommandPath(), c.Use, f.Name)
			}
		})
	}
	walk(root)
}
