package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/faultlens/faultlens/bench"
)

func init() { register(newBenchCmd) }

type benchOptions struct {
	events int
	dir    string
	keep   bool
	nights int
}

func newBenchCmd(s Streams, g *global) *cobra.Command {
	o := &benchOptions{}
	cmd := &cobra.Command{
		Use:   "bench [--events N] [--dir DIR] [--keep]",
		Short: "Measure ingest, report, compare and the dashboard against raw DuckDB",
		Long: `Generate about N events with the simulator (a fault-free baseline suite and
a fault-injected candidate suite, half each) and measure, in this one
process: ingest of JSON Lines (clean, and with 1% bad lines) and of Arrow,
the full report, a comparison, and each dashboard view's data call. Each
row shows events/s, the peak RSS so far, the raw DuckDB figure on the same
input, the ratio, and the issue's target with PASS or MISS.

The global --memory-limit, --threads and --temp-dir apply to every
database opened, faultlens's and the raw figures' alike.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runBench(cmd.Context(), s, g, o)
		},
	}
	f := cmd.Flags()
	f.IntVar(&o.events, "events", 1_000_000, "about how many events to generate")
	f.StringVar(&o.dir, "dir", "", "write the generated input here (default: a temporary directory)")
	f.BoolVar(&o.keep, "keep", false, "keep the generated input")
	f.IntVar(&o.nights, "nights", 0, "also time the dashboard's first paint on a database of this many nights of --events each (slow to build)")
	return cmd
}

func runBench(ctx context.Context, s Streams, g *global, o *benchOptions) error {
	if o.events < 100 {
		return usagef("--events must be at least 100")
	}
	dir := o.dir
	if dir == "" {
		tmp, err := os.MkdirTemp("", "faultlens-bench-*")
		if err != nil {
			return fmt.Errorf("bench: %w", err)
		}
		dir = tmp
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	if !o.keep {
		defer removeInput(dir, o.dir == "")
	}
	res, err := bench.Run(ctx, bench.Config{Events: o.events, Dir: dir, Limits: g.limits, Log: s.Err, Nights: o.nights})
	if err != nil {
		return err
	}
	if o.keep {
		s.notef("bench: input kept in %s\n", dir)
	}
	return bench.Write(s.Out, res)
}

// removeInput deletes what bench wrote: the whole directory when it made
// it, only its own files when the user named it. What it cannot remove is
// left on disk; the figures are out already, and the bench's result stands.
func removeInput(dir string, made bool) {
	if made {
		_ = os.RemoveAll(dir)
		return
	}
	for _, name := range bench.Files {
		_ = os.RemoveAll(filepath.Join(dir, name))
	}
}
