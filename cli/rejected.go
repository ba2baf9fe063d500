package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/faultlens/faultlens/queries"
	"github.com/faultlens/faultlens/textsafe"
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
	rows, err := db.QueryContext(ctx, queries.Get("rejected.list"), o.limit)
	if err != nil {
		return fmt.Errorf("list rejected lines: %w", err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var path, reason, text string
		var line int64
		if err := rows.Scan(&path, &line, &reason, &text); err != nil {
			return err
		}
		n++
		fmt.Fprintf(s.Out, "%s:%d: %s: %s\n", textsafe.Terminal(path), line, textsafe.Terminal(reason), textsafe.Terminal(truncate(text, 120)))
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if n == 0 {
		fmt.Fprintln(s.Err, "no rejected lines")
	}
	return nil
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
