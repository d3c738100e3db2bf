package main

import (
	"errors"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/aepflow/aepflow/lsp"
	"github.com/spf13/cobra"
)

func init() { register("lsp", newLSPCmd) }

func newLSPCmd() *cobra.Command {
	var stdio bool
	cmd := &cobra.Command{
		Use:   "lsp [--stdio]",
		Short: "Run the language server for AEP documents (LSP over stdio)",
		Long: `Lsp runs aepflow's language server: the Language Server Protocol over standard
input and output, for editors. It publishes for each open document exactly what
` + "`aepflow validate`" + ` reports for it in its tree (the workspace folder, or the
nearest directory above the file that holds workflows/, drivers/, …), and
republishes the documents an edit affects (a workflow's step maps and
profiles). Unsaved buffers win over the files on disk.

It also answers hover (states, facts, evidence kinds, verifiers, referenced
documents), go to definition (state ids, a map's workflow pin, a profile's
references), completion (state ids, fact paths, vocabularies, schema keys),
document symbols (states with their moves, a map's states with their steps)
and code actions (the fixes diagnostics carry).

Editors start it themselves; see docs/lsp.md for VS Code, Neovim and Helix.
Log lines go to standard error.

Exit codes: 0 after the client's shutdown and exit, 1 when the client exits
without shutdown or the stream breaks, 2 usage error.`,
		Example: `  # what an editor runs
  aepflow lsp

  # the same; --stdio is accepted because some clients always pass it
  aepflow lsp --stdio`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !stdio {
				return usageError("--stdio=false: standard input and output are the only transport")
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			stream := stdioStream{in: cmd.InOrStdin(), out: cmd.OutOrStdout()}
			err := lsp.Serve(ctx, stream, lsp.Options{Version: version(), Log: cmd.ErrOrStderr(), TreeChecks: treeChecks})
			switch {
			case err == nil:
				return nil
			case errors.Is(err, lsp.ErrNoShutdown):
				// Status 1, as the LSP asks; said on standard error (the
				// log), so that a session run by hand does not end mute.
				return exitWith(exitProblems, errors.New("lsp: the client exited, or closed the stream, without shutdown"))
			}
			return exitWith(exitProblems, err)
		},
	}
	cmd.Flags().BoolVar(&stdio, "stdio", true, "speak LSP over standard input and output (the only transport)")
	return cmd
}

// stdioStream joins standard input and output into the one stream the
// server reads and writes. Closing it closes neither: the process exits
// right after.
type stdioStream struct {
	in  io.Reader
	out io.Writer
}

func (s stdioStream) Read(p []byte) (int, error)  { return s.in.Read(p) }
func (s stdioStream) Write(p []byte) (int, error) { return s.out.Write(p) }
func (s stdioStream) Close() error                { return nil }
