package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/aepflow/aepflow/internal/buildinfo"
)

func init() { register("version", newVersionCmd) }

// version returns the module version the binary was built from, or "devel".
func version() string { return buildinfo.Read().Version }

// addVersionFlag gives the root command --version, printing the same line
// as `aepflow version`.
func addVersionFlag(root *cobra.Command) {
	root.Version = buildinfo.Read().Line("aepflow")
	root.SetVersionTemplate("{{.Version}}\n")
}

func newVersionCmd() *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "version [--format text|json]",
		Short: "Print the aepflow version, commit, build date and Go version",
		Long: `version prints what the binary was built from, as Go recorded it: the module
version (a release tag, a pseudo-version, or "devel" for a build from a work
tree), the VCS commit and its time when the build recorded them, and the Go
version. ` + "`aepflow --version`" + ` prints the same line.

Exit codes: 0 printed, 1 standard output could not be written, 2 usage
error.`,
		Example: `  aepflow version
  aepflow --version
  aepflow version --format json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkEnum("format", format, []string{"text", "json"}); err != nil {
				return err
			}
			b := buildinfo.Read()
			if format == "json" {
				return writeJSON(cmd.OutOrStdout(), b)
			}
			_, err := fmt.Fprintln(cmd.OutOrStdout(), b.Line("aepflow"))
			return err
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output `FORMAT`: text or json")
	_ = cmd.RegisterFlagCompletionFunc("format", fixedCompletion("text", "json"))
	return cmd
}
