// Package cli is the command layer of faultlens: one cobra command per file,
// flags parsed into an options struct next to the function that runs it.
// Errors are mapped to exit codes in exit.go only.
package cli

import (
	"context"
	"io"
	"os"
	"runtime/debug"
	"time"

	"github.com/spf13/cobra"

	"github.com/faultlens/faultlens/baselines"
	"github.com/faultlens/faultlens/store"
)

// Streams are the command's standard streams; tests substitute buffers.
type Streams struct {
	In       io.Reader
	Out, Err io.Writer
	// OutTTY says stdout is a terminal (colour, dashboards).
	OutTTY bool
	// ErrTTY says stderr is a terminal (progress display).
	ErrTTY bool
}

// global holds the flags every command shares.
type global struct {
	limits store.Limits
}

// Run executes the command line args (without the program name) and returns
// the process exit code.
// A panic in the command's goroutine is exit 3 with its stack in a file.
func Run(ctx context.Context, args []string, s Streams) (code int) {
	defer func() {
		if p := recover(); p != nil {
			code = panicked(s.Err, p, debug.Stack())
		}
	}()
	root := newRoot(s)
	started := cobraErrors(root)
	root.SetArgs(args)
	err := asUsage(root.ExecuteContext(ctx), *started)
	reportError(s.Err, err)
	return exitCode(err)
}

func newRoot(s Streams) *cobra.Command {
	g := &global{}
	root := &cobra.Command{
		Use:   "faultlens",
		Short: "Tell the truth about AI agents' runs from their traces",
		Long: `faultlens reads the traces that tool-calling agents write, judges each run
from evidence rather than from the agent's own claim, and reports recovery,
retries, violations and latency per suite, scenario, stage and tool.

Without a command it opens the dashboard on a terminal (faultlens ui) and
otherwise prints the report of the bundled sample traces (faultlens report).`,
		Version:       baselines.Version(),
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          rootArgs,
		PersistentPreRunE: func(*cobra.Command, []string) error {
			return checkGlobal(g)
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if s.OutTTY {
				return runUI(cmd.Context(), s, g, &uiOptions{})
			}
			return runReport(cmd.Context(), s, g, &reportOptions{format: "text"})
		},
	}
	root.SetVersionTemplate("faultlens {{.Version}}\n")
	root.SetOut(s.Out)
	root.SetErr(s.Err)
	root.SetIn(s.In)
	pf := root.PersistentFlags()
	pf.StringVar(&g.limits.MemoryLimit, "memory-limit", envOr("FAULTLENS_MEMORY_LIMIT", ""), "DuckDB memory limit, e.g. 2GB (default 1536MB; env FAULTLENS_MEMORY_LIMIT)")
	pf.IntVar(&g.limits.Threads, "threads", 0, "DuckDB worker threads (default: number of CPUs)")
	pf.StringVar(&g.limits.TempDir, "temp-dir", "", "directory DuckDB spills to when memory runs short")
	pf.DurationVar(&g.limits.LockWait, "lock-wait", 60*time.Second, "how long to wait while another process holds --db")
	root.AddCommand(newIngestCmd(s, g), newReportCmd(s, g), newSimulateCmd(s), newRejectedCmd(s, g), newBaselineCmd(s, g), newCompareCmd(s, g), newHistoryCmd(s, g))
	root.AddCommand(newUICmd(s, g))
	for _, c := range registered {
		root.AddCommand(c(s, g))
	}
	return root
}

// registered holds the constructors of commands that register themselves
// from their own file: func init() { register(newXCmd) }. New commands
// (compare, baseline, history, ui, ...) use this instead of editing the
// AddCommand line above, so that each command stays in its own file.
var registered []func(Streams, *global) *cobra.Command

func register(c func(Streams, *global) *cobra.Command) { registered = append(registered, c) }

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}
