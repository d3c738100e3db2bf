// Package shquote writes command lines a POSIX shell reads back into the
// arguments they were built from: the provenance command of a trace
// evidence record and the regeneration command of an instructions index.
// An argument is quoted only when it needs it, so the common paths and
// ids stay as readable as they were.
package shquote

import "strings"

// plain lists bytes a POSIX shell takes as themselves in an argument (XCU
// §2.2, §2.6; `=` means an assignment only before the command name): an
// argument made of them only is written as it is.
const plain = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/-+,=:@"

// Arg returns s as one word of a POSIX shell command line: s itself when it
// is not empty and every byte of it is in plain, else s in single quotes,
// inside which a shell takes every byte as it is; a single quote of s is
// written as a closing quote, a backslash-escaped quote and an opening
// quote. A space, a quote, `$`, a backtick, `*`, `~`, a newline or a byte
// beyond ASCII is therefore quoted.
func Arg(s string) string {
	if s != "" && strings.Trim(s, plain) == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Join returns the command line of args: each quoted by Arg, joined by
// spaces.
func Join(args ...string) string {
	words := make([]string, len(args))
	for i, a := range args {
		words[i] = Arg(a)
	}
	return strings.Join(words, " ")
}
