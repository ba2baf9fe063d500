package ingest

import (
	"context"
	"testing"
	"time"
)

// BenchmarkEnumsProvenFile ingests the same generated clean file (whole
// File(), each time on a fresh in-memory database) with the enumeration
// checks skipped (the scan proved them, enums_proven) and kept
// (enumsProvenOff), in turns within each iteration (A B, then B A in the
// next, so that neither always goes first), so that both meet the same load; it reports the CPU of each and their ratio, and logs
// each round's pair. -benchtime Nx runs N rounds.
// FAULTLENS_BENCH_EVENTS sets the size (default 100,000).
func BenchmarkEnumsProvenFile(b *testing.B) {
	n := benchEvents(b)
	path := benchTraceFile(b, n)
	defer func(v bool) { enumsProvenOff = v }(enumsProvenOff)
	var on, off time.Duration
	round := 0
	for b.Loop() {
		var cpu [2]time.Duration // proven, checked
		order := []int{0, 1}
		if round%2 == 1 {
			order = []int{1, 0}
		}
		for _, i := range order {
			skip := i == 0
			b.StopTimer()
			db := benchDB(b)
			enumsProvenOff = !skip
			b.StartTimer()
			c0 := cpuTime()
			res, err := File(context.Background(), db, path, Options{})
			cpu[i] = cpuTime() - c0
			if err != nil || !res.typedRead || res.Accepted != int64(n) {
				b.Fatalf("skip %v: %+v, %v", skip, res, err)
			}
			b.StopTimer()
			closeQuietly(db)
			b.StartTimer()
		}
		round++
		b.Logf("round %d: proven %.3f s, checked %.3f s CPU (%.3f)", round, cpu[0].Seconds(), cpu[1].Seconds(),
			cpu[0].Seconds()/cpu[1].Seconds())
		on, off = on+cpu[0], off+cpu[1]
	}
	b.ReportMetric(on.Seconds()/float64(b.N), "proven-cpu-s")
	b.ReportMetric(off.Seconds()/float64(b.N), "checked-cpu-s")
	b.ReportMetric(float64(on)/float64(off), "proven/checked")
}
