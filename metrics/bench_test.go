package metrics

import (
	"bufio"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/faultlens/faultlens/ingest"
	"github.com/faultlens/faultlens/simulate"
	"github.com/faultlens/faultlens/store"
)

// benchRuns is the number of simulated runs per suite: about 15 events each,
// so the default 3,500 runs × 2 suites is ~100k events. Set
// FAULTLENS_BENCH_RUNS=35000 for ~1M events.
func benchRuns() int {
	if v, err := strconv.Atoi(os.Getenv("FAULTLENS_BENCH_RUNS")); err == nil && v > 0 {
		return v
	}
	return 3500
}

// benchDB ingests a baseline and a fault-injected suite of simulator
// output (benchRuns runs each) into a fresh in-memory database and returns
// it with the number of events.
func benchDB(b *testing.B) (*sql.DB, int64) {
	b.Helper()
	ctx := context.Background()
	dir := b.TempDir()
	var paths []string
	for _, o := range []simulate.Options{
		{Runs: benchRuns(), Seed: 1, Suite: "baseline", Policy: simulate.Careful},
		{Runs: benchRuns(), Seed: 2, Suite: "candidate", Faults: true, Policy: simulate.Mixed},
	} {
		p := filepath.Join(dir, o.Suite+".jsonl")
		f, err := os.Create(p)
		if err != nil {
			b.Fatal(err)
		}
		w := bufio.NewWriter(f)
		if _, err := simulate.Generate(w, o); err != nil {
			b.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			b.Fatal(err)
		}
		closeQuietly(f)
		paths = append(paths, p)
	}
	db, err := store.Open(ctx, "", store.Limits{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { closeOK(b, db) })
	rs, err := ingest.Files(ctx, db, paths, ingest.Options{})
	if err != nil {
		b.Fatal(err)
	}
	t, _, _ := ingest.Totals(rs)
	return db, t.Accepted
}

// BenchmarkReport measures the full report (fact tables plus every metric
// query) over a baseline and a fault-injected suite of simulator output.
func BenchmarkReport(b *testing.B) {
	ctx := context.Background()
	db, events := benchDB(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, err := Open(ctx, db)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Report(ctx, Options{}); err != nil {
			b.Fatal(err)
		}
		closeQuietly(s)
	}
	b.ReportMetric(float64(events), "events")
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
