package hookmain

import (
	"bytes"
	"strings"
	"testing"
)

// TestRunAnswersWithoutAProject runs the program in process: a hook point
// other than transition proceeds (exit 0, nothing printed), a stdin that
// is not JSON cannot be answered (exit 1, one line on stderr), and --help
// and --version exit 1 with the help or the version line on stdout.
func TestRunAnswersWithoutAProject(t *testing.T) {
	for _, c := range []struct {
		name, stdin string
		args        []string
		code        int
		stdout      string // a prefix; "" for nothing
		stderr      string // a prefix; "" for nothing
	}{
		{"other hook point", `{"hook":"before_call"}`, []string{"--project", "nowhere"}, 0, "", ""},
		{"not JSON", "nope", nil, 1, "", "aepflow-hook: stdin is not the loop's JSON: "},
		{"help", "", []string{"--help"}, 1, "aepflow-hook answers", ""},
		{"version", `{"hook":"before_call"}`, []string{"--version"}, 1, "aepflow-hook ", ""},
		{"misspelt version", "", []string{"--versoin"}, 1, "", "aepflow-hook: unknown flag --versoin; did you mean --version?\n"},
		{"usage", "", []string{"--run"}, 1, "", "aepflow-hook: --run needs a value\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Run(c.args, strings.NewReader(c.stdin), &stdout, &stderr)
			if code != c.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, c.code, stderr.String())
			}
			for _, out := range []struct {
				name, got, want string
			}{{"stdout", stdout.String(), c.stdout}, {"stderr", stderr.String(), c.stderr}} {
				if (out.want == "") != (out.got == "") || !strings.HasPrefix(out.got, out.want) {
					t.Errorf("%s %q, want it to start with %q", out.name, out.got, out.want)
				}
			}
			if lines := strings.Count(stderr.String(), "\n"); lines > 1 {
				t.Errorf("stderr holds %d lines, want at most one", lines)
			}
		})
	}
}

// panicking is a stdin whose every read panics.
type panicking struct{}

func (panicking) Read([]byte) (int, error) { panic("boom\nsecond line") }

// TestRunRecoversAPanic: a panic anywhere in a consultation is exit 1 and
// one line on stderr, never Go's exit 2 for a panic, which the harness
// would read as a refusal that carries no reason.
func TestRunRecoversAPanic(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := Run([]string{"--project", "nowhere"}, panicking{}, &stdout, &stderr)
	if code != 1 || stdout.Len() != 0 || stderr.String() != "aepflow-hook: internal error: boom\\x0asecond line\n" {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and one line", code, stdout.String(), stderr.String())
	}
}
