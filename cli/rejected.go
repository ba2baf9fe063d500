package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/faultlens/faultlens/report"
	"github.com/faultlens/faultlens/store"
)

type rejectedOptions struct {
	src   source
	limit int
}

func newRejectedCmd(s Streams, g *global) *cobra.Command {
	o := &rejectedOptions{}
	cmd := &cobra.Command{
		Use:   "rejected [--db FILE] [PATH...]",
		Short: "List rejected input lines with file, line number and reason",
		RunE: func(cmd *cobra.Command, args []string) error {
			o.src.paths = args
			return runRejected(cmd.Context(), s, g, o)
		},
	}
	cmd.Flags().StringVar(&o.src.db, "db", "", "read this database file")
	cmd.Flags().IntVar(&o.limit, "limit", 1000, "list at most this many lines")
	return cmd
}

func runRejected(ctx context.Context, s Streams, g *global, o *rejectedOptions) error {
	db, done, err := o.src.open(ctx, g, s.Err)
	if err != nil {
		return err
	}
	defer done()
	lines, err := store.RejectedLines(ctx, db, o.limit)
	if err != nil {
		return err
	}
	if len(lines) == 0 {
		s.notef("no rejected lines\n")
		return nil
	}
	return report.WriteRejected(s.Out, lines)
}
