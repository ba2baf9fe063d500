package metrics

import (
	"context"
	"syscall"
	"testing"
	"time"
)

// evidenceCPU is the CPU time this process has used, all threads (DuckDB's
// included): on the shared machine a steadier measure than wall time.
func evidenceCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkEvidence measures the compare input: Evidence of both suites
// ("both", the bench row "view compare input: Evidence ×2"), and each part
// of the candidate suite alone (without Evidence's count query), on a
// session whose fact tables are built.
// FAULTLENS_BENCH_RUNS sets the runs per suite (35000 ≈ 1M events).
func BenchmarkEvidence(b *testing.B) {
	ctx := context.Background()
	db, _ := benchDB(b)
	s, err := Open(ctx, db)
	if err != nil {
		b.Fatal(err)
	}
	defer closeQuietly(s)
	cases := []struct {
		name string
		call func() error
	}{{"both", func() error {
		for _, suite := range []string{"baseline", "candidate"} {
			if _, err := s.Evidence(ctx, suite); err != nil {
				return err
			}
		}
		return nil
	}}}
	// The parts read into slices of the final size, as Evidence does.
	full, err := s.Evidence(ctx, "candidate")
	if err != nil {
		b.Fatal(err)
	}
	for _, part := range evidenceParts {
		cases = append(cases, struct {
			name string
			call func() error
		}{part, func() error {
			ev := &Evidence{Runs: make([]RunFact, 0, len(full.Runs)), Latency: make([]LatencySample, 0, len(full.Latency)),
				Recovery: make([]RecoverySample, 0, len(full.Recovery))}
			return s.readPart(ctx, "candidate", part, ev)
		}})
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			cpu := evidenceCPU()
			for i := 0; i < b.N; i++ {
				if err := c.call(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(evidenceCPU()-cpu)/float64(b.N)/1e6, "cpu-ms/op")
		})
	}
}
