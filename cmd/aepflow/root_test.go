package main

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// testTree builds a command tree shaped like aepflow's (a root, a drive
// group and another group) whose verbs fail as told, to check the exit
// codes guardCommands and execute give every failure.
func testTree(stdout, stderr *bytes.Buffer) *cobra.Command {
	root := &cobra.Command{Use: "aepflow", SilenceUsage: true, SilenceErrors: true}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetIn(strings.NewReader(""))
	verbs := func() []*cobra.Command {
		return []*cobra.Command{
			{Use: "boom", RunE: func(*cobra.Command, []string) error { panic("kaboom") }},
			{Use: "plain", RunE: func(*cobra.Command, []string) error { return errors.New("write failed") }},
			{Use: "fine", RunE: func(*cobra.Command, []string) error { return nil }},
		}
	}
	drive := &cobra.Command{Use: "drive"}
	drive.AddCommand(verbs()...)
	other := &cobra.Command{Use: "other"}
	other.AddCommand(verbs()...)
	root.AddCommand(drive, other)
	guardCommands(root)
	return root
}

func TestExitCodesOfFailures(t *testing.T) {
	for _, tc := range []struct {
		args       []string
		code       int
		stderr     string
		reasonLine bool
	}{
		{[]string{"other", "boom"}, exitUndecided, "aepflow: other boom: internal error: kaboom", false},
		{[]string{"drive", "boom"}, hookCannot, "aepflow: drive boom: internal error: kaboom", false},
		{[]string{"other", "plain"}, exitProblems, "aepflow: write failed", false},
		{[]string{"drive", "plain"}, exitProblems, "aepflow: write failed", false},
		{[]string{"other", "fine"}, exitOK, "", false},
		{[]string{"other"}, exitUsage, `"aepflow other" needs a verb: boom, fine or plain`, false},
		{[]string{"other", "fin"}, exitUsage, `unknown command "fin" for "aepflow other"; did you mean "fine"?`, false},
		{[]string{"other", "zzzzzz", "--flag", "x"}, exitUsage, `unknown command "zzzzzz" for "aepflow other"; its verbs are boom, fine or plain`, false},
		{[]string{"drive"}, exitUsage, `"aepflow drive" needs a verb`, true},
		{[]string{"drive", "fien", "--project", "p"}, exitUsage, `did you mean "fine"?`, true},
		{[]string{"drive", "fine", "--help"}, hookCannot, "", false},
		{[]string{"drive", "--help"}, hookCannot, "", false},
		{[]string{"other", "fine", "--help"}, exitOK, "", false},
	} {
		var stdout, stderr bytes.Buffer
		code := execute(testTree(&stdout, &stderr), tc.args, &stderr)
		if code != tc.code {
			t.Errorf("%v: exit %d, want %d (stderr %q)", tc.args, code, tc.code, stderr.String())
		}
		if !strings.Contains(stderr.String(), tc.stderr) {
			t.Errorf("%v: stderr %q lacks %q", tc.args, stderr.String(), tc.stderr)
		}
		if tc.reasonLine {
			if !strings.HasPrefix(stdout.String(), `{"reason":"`) || strings.Count(stdout.String(), "\n") != 1 {
				t.Errorf("%v: stdout %q is not one reason line", tc.args, stdout.String())
			}
		} else if tc.code == exitUsage && stdout.Len() > 0 {
			t.Errorf("%v: stdout %q; want nothing", tc.args, stdout.String())
		}
	}
}

// TestOneCommandTree checks what newRootCmdFor relies on: each registered
// name is its command's name, so a command line that starts with it gets
// that command (beside cobra's help and completion); and every command
// line under it behaves alike with the command alone and with the whole
// tree (help, a bad flag, a bad verb).
func TestOneCommandTree(t *testing.T) {
	// registered lists the commands of a tree that were registered, not
	// cobra's own.
	registered := func(root *cobra.Command) []string {
		var names []string
		for _, c := range root.Commands() {
			if c.Name() != "help" && c.Name() != "completion" {
				names = append(names, c.Name())
			}
		}
		return names
	}
	whole := newRootCmd(strings.NewReader(""), io.Discard, io.Discard)
	if got, want := len(registered(whole)), len(commandFactories); got != want {
		t.Fatalf("the whole tree has %d commands, %d are registered", got, want)
	}
	for _, f := range commandFactories {
		alone := newRootCmdFor([]string{f.name}, strings.NewReader(""), io.Discard, io.Discard)
		if names := registered(alone); len(names) != 1 || names[0] != f.name {
			t.Fatalf("%s: the tree for it holds %v, want that command alone", f.name, names)
		}
		cmd, _, err := alone.Find([]string{f.name})
		if err != nil {
			t.Fatal(err)
		}
		lines := [][]string{{f.name, "--help"}, {f.name, "--no-such-flag"}, {f.name, "no-such-verb"}}
		for _, c := range cmd.Commands() {
			lines = append(lines, []string{f.name, c.Name(), "--help"}, []string{f.name, c.Name(), "--no-such-flag"})
		}
		for _, args := range lines {
			var out1, err1, out2, err2 bytes.Buffer
			code1 := execute(newRootCmdFor(args, strings.NewReader(""), &out1, &err1), args, &err1)
			code2 := execute(newRootCmd(strings.NewReader(""), &out2, &err2), args, &err2)
			if code1 != code2 || out1.String() != out2.String() || err1.String() != err2.String() {
				t.Errorf("%v: alone exit %d, stdout %q, stderr %q; in the whole tree exit %d, stdout %q, stderr %q",
					args, code1, out1.String(), err1.String(), code2, out2.String(), err2.String())
			}
		}
	}
	for _, args := range [][]string{{"--color", "never", "version"}, {"help", "drive"}, {"completion", "bash"}, {"no-such-command"}} {
		if names := registered(newRootCmdFor(args, strings.NewReader(""), io.Discard, io.Discard)); len(names) != len(commandFactories) {
			t.Errorf("%q gets %d commands, want the whole tree", args, len(names))
		}
	}
}
