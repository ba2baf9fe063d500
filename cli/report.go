package cli

import (
	"context"
	"os"
	"slices"

	"github.com/spf13/cobra"

	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/report"
)

type reportOptions struct {
	src    source
	suites []string
	format string
}

func newReportCmd(s Streams, g *global) *cobra.Command {
	o := &reportOptions{}
	cmd := &cobra.Command{
		Use:   "report [--db FILE] [--suite S]... [--format text|json|markdown|csv|html] [PATH...]",
		Short: "Evaluate runs and print the report",
		Long: `Evaluate every run and print per suite and scenario the funnel, claimed vs
actual success, violations, recovery, evidence grade and latency.

With PATHs and no --db the files are ingested into memory first. With --db the
report reads that database (and adds PATHs to it if given). With neither it
reports on the bundled sample traces.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.src.paths = args
			return runReport(cmd.Context(), s, g, o)
		},
	}
	cmd.Flags().Var(dbFlag{&o.src}, "db", "read this database file; repeat it, or give a glob, to read shards as one")
	cmd.Flags().StringArrayVar(&o.suites, "suite", nil, "report only this suite (repeatable)")
	cmd.Flags().StringVarP(&o.format, "format", "f", "text", "output format: text, json, markdown, csv or html")
	return cmd
}

func runReport(ctx context.Context, s Streams, g *global, o *reportOptions) error {
	if !slices.Contains(report.Formats, o.format) {
		return usagef("unknown --format %q (want text, json, markdown, csv or html)", o.format)
	}
	db, done, err := o.src.open(ctx, g, s.Err)
	if err != nil {
		return err
	}
	defer done()
	rep, err := metrics.ReportBySuite(ctx, db, metrics.Options{Suites: o.suites})
	if err != nil {
		return err
	}
	for _, want := range o.suites {
		if !hasSuite(rep, want) {
			all, err := metrics.AllSuites(ctx, db)
			if err != nil {
				return err
			}
			return usagef("no suite %q in the input (%s)", want, knownList("suite", all))
		}
	}
	if err := report.Write(s.Out, rep, o.format, report.Options{Color: s.OutTTY && os.Getenv("NO_COLOR") == ""}); err != nil {
		return err
	}
	if len(rep.Suites) == 0 && (o.src.db != "" || len(o.src.paths) > 0) {
		// A corrupt nightly file must not pass for an empty success.
		return usagef("nothing to report: the input holds 0 runs (%d rejected lines; faultlens rejected lists them)", rep.Rejected.Lines)
	}
	return nil
}

func hasSuite(rep *metrics.Report, name string) bool {
	for _, st := range rep.Suites {
		if st.Suite == name {
			return true
		}
	}
	return false
}
