package cli

import (
	"bytes"
	"context"
	"database/sql"
	"io"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/faultlens/faultlens/baselines"
	"github.com/faultlens/faultlens/compare"
	"github.com/faultlens/faultlens/ingest"
	"github.com/faultlens/faultlens/metrics"
)

type compareOptions struct {
	src                 source
	baseline, candidate string
	baselineLast        int
	gates               string
	format, out, dir    string
}

func newCompareCmd(s Streams, g *global) *cobra.Command {
	o := &compareOptions{}
	cmd := &cobra.Command{
		Use:   "compare (--baseline B | --baseline-last K) --candidate C [--gates FILE] [--format F] [--out FILE] [--db FILE | PATH...]",
		Short: "Compare a candidate run set with a baseline and apply the gates",
		Long: `Compare two run sets: B and C are suite names in the input or names of
baselines saved with "faultlens baseline save" (looked up in --dir).

With --baseline-last K the baseline is the K suites (nights) of the input
that precede C in date order, pooled; the A/A noise band is then the
widest change seen between two of those nights.

The gates name the pre-registered family that decides the exit code: each
gated row is tested one-sided in its gate's bad direction (inverted
Newcombe interval for rates, percentile bootstrap for latency quantiles, an
exact binomial test against the margin when the baseline has no data) with
Holm–Bonferroni within that family only, and its interval is drawn at the
level that agrees with the verdict. Every other row is exploratory:
two-sided, Holm within its own family, never deciding the exit code.

The two sides must run the same fault scenarios, or the baseline must be
fault-free (the fault scenarios are then judged by expectation
conformance); any other mix is refused.

DuckDB's memory limit defaults to 1GB here, not 1536MB: the comparison's
own memory (the samples, the bootstraps) comes on top of it, and two
nights of a million events then stay within 1.5 GiB. --memory-limit (or
FAULTLENS_MEMORY_LIMIT) sets it as for every command.

Exit status: 0 every gate passed, 1 at least one gate failed, 2 usage or
input error.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.src.paths = args
			return runCompare(cmd.Context(), s, g, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.baseline, "baseline", "", "baseline suite or saved baseline name")
	f.IntVar(&o.baselineLast, "baseline-last", 0, "use the K suites before the candidate, by date, as the baseline")
	f.StringVar(&o.candidate, "candidate", "", "candidate suite or saved baseline name")
	f.StringVar(&o.gates, "gates", "", "gates YAML file (default: the shipped gates)")
	f.StringVarP(&o.format, "format", "f", "text", "output format: "+strings.Join(compare.Formats, ", "))
	f.StringVarP(&o.out, "out", "o", "", "write the report to FILE instead of stdout")
	f.StringVar(&o.dir, "dir", "baselines", "directory of saved baselines")
	f.Var(dbFlag{&o.src}, "db", "read this database file; repeat it, or give a glob, to read shards as one")
	cmd.MarkFlagsOneRequired("baseline", "baseline-last")
	cmd.MarkFlagsMutuallyExclusive("baseline", "baseline-last")
	requireFlags(cmd, "candidate")
	return cmd
}

func runCompare(ctx context.Context, s Streams, g *global, o *compareOptions) error {
	if !slices.Contains(compare.Formats, o.format) {
		return usagef("unknown --format %q (want %s)", o.format, strings.Join(compare.Formats, ", "))
	}
	gates, err := loadGates(o.gates)
	if err != nil {
		return err
	}
	db, done, err := o.src.open(ctx, compareLimits(g), s.Err)
	if err != nil {
		return err
	}
	release := sync.OnceFunc(done)
	defer release()
	nights := []string{o.baseline}
	if o.baseline == "" { // --baseline-last
		if nights, err = lastNights(ctx, db, o.candidate, o.baselineLast); err != nil {
			return err
		}
	}
	in, err := loadCompareInput(ctx, db, nights, o)
	if err != nil {
		return err
	}
	// The database is not read again: closing it now returns DuckDB's
	// memory (buffers, caches) before the comparison allocates its own.
	release()
	res := compare.Compare(in.base, in.cand, in.bs, in.cs, compare.Options{Alpha: gates.Alpha})
	compare.Evaluate(res, gates)
	var buf bytes.Buffer
	if err := compare.Write(&buf, res, o.format); err != nil {
		return err
	}
	page := buf.Bytes()
	if in.pairs != nil {
		if page, err = compare.InsertPairsHTML(page, in.pairs); err != nil {
			return err
		}
	}
	if err := writeOut(s.Out, o.out, page); err != nil {
		return err
	}
	if res.Failed > 0 {
		return &GateFailure{Failed: res.Failed}
	}
	return nil
}

// htmlPairs is how many paired runs the HTML export shows.
const htmlPairs = 5

// loadGates reads the gates file, or the shipped defaults. A bad file is an
// input error (exit 2).
func loadGates(path string) (*compare.Gates, error) {
	if path == "" {
		return compare.DefaultGates(), nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, &ingest.InputError{Path: path, Err: err}
	}
	defer func() { _ = f.Close() }() // read only
	gs, err := compare.ParseGates(f)
	if err != nil {
		return nil, &ingest.InputError{Path: path, Err: err}
	}
	return gs, nil
}

// loadSide finds name as a suite of the input first, then as a saved
// baseline.
func loadSide(ctx context.Context, sess *metrics.Session, db *sql.DB, dir, name string) (*metrics.Evidence, compare.Side, error) {
	ev, err := sess.Evidence(ctx, name)
	if err != nil {
		return nil, compare.Side{}, err
	}
	if len(ev.Runs) > 0 {
		return ev, compare.Side{Name: name, Source: "suite", Suite: name}, nil
	}
	if baselines.Exists(dir, name) {
		ev, m, err := baselines.Load(ctx, db, dir, name)
		if err != nil {
			return nil, compare.Side{}, err
		}
		return ev, compare.Side{Name: name, Source: "saved", Suite: m.Suite}, nil
	}
	suites, err := metrics.AllSuites(ctx, db)
	if err != nil {
		return nil, compare.Side{}, err
	}
	var saved []string
	if ms, err := baselines.List(dir); err == nil {
		for _, m := range ms {
			saved = append(saved, m.Name)
		}
	}
	return nil, compare.Side{}, usagef("%q is neither a suite in the input nor a saved baseline in %s (%s; %s)", name, dir,
		knownList("suite", suites), knownList("saved baseline", saved))
}

// writeOut writes b to the file path, or to w when path is empty.
func writeOut(w io.Writer, path string, b []byte) error {
	if path == "" {
		_, err := w.Write(b)
		return err
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return &ingest.InputError{Path: path, Err: err}
	}
	return nil
}

// compareMemoryLimit is compare's DuckDB memory limit when none is given:
// the Go side holds up to ~0.5 GiB beside DuckDB's (two 1M-event nights:
// peak RSS 1.25–1.35 GiB at 1GB, 1.25–1.59 GiB at the global default of
// 1536MB; docs/benchmarks.md), and the output is the same.
const compareMemoryLimit = "1GB"

// compareLimits is g with compare's default memory limit when the user set
// none.
func compareLimits(g *global) *global {
	if g.limits.MemoryLimit != "" {
		return g
	}
	c := *g
	c.limits.MemoryLimit = compareMemoryLimit
	return &c
}
