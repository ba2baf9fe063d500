package cli

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/faultlens/faultlens/simulate"
)

type simulateOptions struct {
	out     string
	samples string
	runs    int
	seed    int64
	faults  bool
	policy  string
	suite   string
	start   string
}

func newSimulateCmd(s Streams) *cobra.Command {
	o := &simulateOptions{}
	cmd := &cobra.Command{
		Use:   "simulate --out DIR [--runs N] [--seed S] [--faults] [--policy careful|naive|mixed] [--suite NAME]",
		Short: "Write deterministic sample traces",
		Long: `Write realistic, deterministic traces: a fault-free baseline suite
(baseline.jsonl, careful agent) and a fault-injected candidate suite
(candidate.jsonl, the seeds' 27 fault scenarios, careful and naive agents).
With --suite only that one suite is written, shaped by --faults and --policy.
--samples DIR writes the bundled samples exactly as committed.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runSimulate(cmd.Context(), s, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.out, "out", "", "directory to write into")
	f.StringVar(&o.samples, "samples", "", "write the bundled sample traces into this directory")
	f.IntVar(&o.runs, "runs", 1000, "runs per suite")
	f.Int64Var(&o.seed, "seed", 1, "random seed; the same seed writes the same bytes")
	f.BoolVar(&o.faults, "faults", true, "inject faults (with --suite)")
	f.StringVar(&o.policy, "policy", "mixed", "agent policy with --suite: careful, naive or mixed")
	f.StringVar(&o.suite, "suite", "", "write only this suite")
	f.StringVar(&o.start, "start", "", "RFC 3339 time of the first run (default 2026-11-28T02:00:00Z)")
	return cmd
}

func runSimulate(_ context.Context, s Streams, o *simulateOptions) error {
	if o.samples != "" {
		if err := simulate.WriteSamples(o.samples, o.seed); err != nil {
			return fmt.Errorf("simulate: %w", err)
		}
		_, err := fmt.Fprintf(s.Out, "wrote samples to %s\n", o.samples)
		return err
	}
	if o.out == "" {
		return usagef("simulate needs --out DIR (or --samples DIR)")
	}
	if o.runs <= 0 {
		return usagef("--runs must be positive")
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return fmt.Errorf("simulate: %w", err)
	}
	start := simulate.DefaultStart
	if o.start != "" {
		t, err := time.Parse(time.RFC3339, o.start)
		if err != nil {
			return usagef("--start %q: want an RFC 3339 time such as 2026-11-28T02:00:00Z", o.start)
		}
		start = t
	}
	var jobs []simulate.Options
	if o.suite != "" {
		pol, err := simulate.ParsePolicy(o.policy)
		if err != nil {
			return usagef("%v", err)
		}
		jobs = append(jobs, simulate.Options{Runs: o.runs, Seed: o.seed, Suite: o.suite, Faults: o.faults, Policy: pol, Start: start})
	} else {
		jobs = append(jobs,
			simulate.Options{Runs: o.runs, Seed: o.seed, Suite: "baseline", Policy: simulate.Careful, Start: start},
			simulate.Options{Runs: o.runs, Seed: o.seed + 1, Suite: "candidate", Faults: true, Policy: simulate.Mixed, Start: start})
	}
	for _, job := range jobs {
		path := filepath.Join(o.out, job.Suite+".jsonl")
		sum, err := writeSuite(path, job)
		if err != nil {
			return fmt.Errorf("simulate %s: %w", path, err)
		}
		if _, err := fmt.Fprintf(s.Out, "%s: %d runs, %d events, %d bytes\n", path, sum.Runs, sum.Events, sum.Bytes); err != nil {
			return err
		}
	}
	return nil
}

func writeSuite(path string, opts simulate.Options) (simulate.Summary, error) {
	f, err := os.Create(path)
	if err != nil {
		return simulate.Summary{}, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	sum, err := simulate.Generate(w, opts)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return sum, err
}
