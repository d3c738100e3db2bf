package main

import (
	"fmt"
	"strings"

	"github.com/aepflow/aepflow/schemas"
	"github.com/spf13/cobra"
)

func init() { register("schema", newSchemaCmd) }

// completeSchemaNames completes NAME from the embedded schemas.
func completeSchemaNames(_ *cobra.Command, args []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return filterPrefix(schemas.Names(), prefix), cobra.ShellCompDirectiveNoFileComp
}

// schemaFormats are the values of `schema --format`: how the list of names
// is printed (a schema is JSON in both).
var schemaFormats = []string{"text", "json"}

func newSchemaCmd() *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "schema [NAME] [--format text|json]",
		Short: "Print a JSON Schema aepflow embeds (AEP documents, flow documents)",
		Long: `Schema prints one of the JSON Schemas (draft 2020-12) aepflow embeds, so that an
editor checks documents against the same shapes "aepflow validate" (and, for a
flow document, "aepflow plan") enforces.
Without NAME it lists the available names, one a line (--format json: a JSON
array).

Names: workflow, driver-steps (step maps), protocol, principle, profile,
lifecycle, and flow (a b10x flow document, checked by "aepflow plan";
flow-format.md §3.3).

The schemas describe shape (keys, types, identifier patterns). Rules that
relate several values — a workflow's dead ends, a step map's placeholders, a
flow's dependencies — are checked by "aepflow validate" (a flow's by "aepflow
plan") only.

Exit codes: 0 printed, 1 standard output could not be written, 2 unknown
NAME or --format, or more than one NAME.`,
		Example: `  # list the schemas
  aepflow schema

  # save the step-map schema for yaml-language-server
  mkdir -p .schemas && aepflow schema driver-steps > .schemas/driver-steps.json
  # then, first line of a step map:
  # yaml-language-server: $schema=../.schemas/driver-steps.json`,
		Args:              atMostOneName,
		ValidArgsFunction: completeSchemaNames,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkEnum("format", format, schemaFormats); err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if len(args) == 0 && format == "json" {
				return writeJSON(out, schemas.Names())
			}
			if len(args) == 0 {
				_, err := fmt.Fprintln(out, strings.Join(schemas.Names(), "\n"))
				return err
			}
			data, ok := schemas.Get(args[0])
			if !ok {
				return usageError("%s", enumMessage("schema", args[0], schemas.Names()))
			}
			_, err := out.Write(data)
			return err
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output `FORMAT` of the list of names: text or json (a schema is JSON)")
	completeFormats(cmd, schemaFormats...)
	return cmd
}

// atMostOneName refuses a second NAME in aepflow's words (cobra's are
// "accepts at most 1 arg(s), received 2").
func atMostOneName(cmd *cobra.Command, args []string) error {
	if len(args) <= 1 {
		return nil
	}
	return fmt.Errorf("%q prints one schema, got %d names (%s); give one NAME, or none to list them", cmd.CommandPath(), len(args), strings.Join(args, ", "))
}
