package serve

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/faultlens/faultlens/serve/servetest"
	"github.com/faultlens/faultlens/store"
)

// BenchmarkGroupCommit measures the committer alone: one commit of 16
// requests of 21 runs (105 spans each, the shape of an SDK's batch),
// parsed beforehand, into a database file:
//
//	go test ./serve/ -run '^$' -bench GroupCommit -benchtime 10x -cpuprofile cpu.out
func BenchmarkGroupCommit(b *testing.B) {
	rc := New(Config{DB: filepath.Join(b.TempDir(), "bench.duckdb"), Limits: store.Limits{TempDir: b.TempDir()}})
	defer func() {
		if err := rc.Close(context.Background()); err != nil {
			b.Error(err)
		}
	}()
	const clients, runs = 16, 21
	groups := make([][]*pending, b.N)
	for i := range groups {
		for c := range clients {
			groups[i] = append(groups[i], pendingOf(context.Background(), b, servetest.Runs((i*clients+c)*runs, runs)))
		}
	}
	b.ResetTimer()
	for _, g := range groups {
		rc.commitGroup(g)
		for _, p := range g {
			if out := <-p.done; out.Err != nil {
				b.Fatal(out.Err)
			}
		}
	}
	b.ReportMetric(float64(b.N*clients*runs*servetest.SpansPerRun)/b.Elapsed().Seconds(), "spans/s")
}
