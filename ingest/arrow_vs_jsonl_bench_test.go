package ingest

import (
	"context"
	"testing"
	"time"
)

// BenchmarkArrowVsJSONL ingests the same generated events as a canonical
// Arrow IPC file and as JSON Lines, one after the other in each iteration
// (so that both see the same load), each on a fresh in-memory database, and
// reports CPU (all threads) and wall time of each and their ratios, Arrow
// over JSON Lines (issue 12.1: Arrow ingest no slower than JSON Lines):
//
//	FAULTLENS_BENCH_EVENTS=300000 go test ./ingest/ -run '^$' -bench BenchmarkArrowVsJSONL -benchtime 3x
func BenchmarkArrowVsJSONL(b *testing.B) {
	n := benchEvents(b)
	files := []string{benchArrowFile(b), benchTraceFile(b, n)}
	ctx := context.Background()
	var cpu, wall [2]time.Duration
	iters := 0
	for b.Loop() {
		iters++
		for i, path := range files {
			b.StopTimer()
			db := benchDB(b)
			b.StartTimer()
			c0, t0 := cpuTime(), time.Now()
			res, err := File(ctx, db, path, Options{})
			wall[i] += time.Since(t0)
			cpu[i] += cpuTime() - c0
			if err != nil || !res.FastPath || res.Accepted != int64(n) {
				b.Fatalf("ingest %s: %v, %+v", path, err, res)
			}
			b.StopTimer()
			closeQuietly(db)
			b.StartTimer()
		}
	}
	k := float64(iters)
	b.ReportMetric(float64(cpu[0].Milliseconds())/k, "arrow_cpu_ms")
	b.ReportMetric(float64(cpu[1].Milliseconds())/k, "jsonl_cpu_ms")
	b.ReportMetric(cpu[0].Seconds()/cpu[1].Seconds(), "cpu_ratio")
	b.ReportMetric(float64(wall[0].Milliseconds())/k, "arrow_wall_ms")
	b.ReportMetric(float64(wall[1].Milliseconds())/k, "jsonl_wall_ms")
	b.ReportMetric(wall[0].Seconds()/wall[1].Seconds(), "wall_ratio")
}
