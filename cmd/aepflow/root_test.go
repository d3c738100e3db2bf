package main

import (
	"bytes"
	"errors"
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
