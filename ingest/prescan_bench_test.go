package ingest

import (
	"bytes"
	"os"
	"slices"
	"testing"
	"time"
)

// BenchmarkPrescan measures the prescan's wall time over a generated file
// held in memory (no disk), the SHA-256 on a goroutine of its own beside the
// line count and key/type scan (parallel) and on the prescan's goroutine
// (serial), in turns, five of each per iteration; it reports the medians.
// FAULTLENS_BENCH_EVENTS sets the size (default 100,000).
func BenchmarkPrescan(b *testing.B) {
	n := benchEvents(b)
	path := benchTraceFile(b, n)
	content, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	defer func(v bool) { prescanSerial = v }(prescanSerial)
	var par, ser []time.Duration
	for b.Loop() {
		for range 5 {
			for _, serial := range []bool{false, true} {
				prescanSerial = serial
				t0 := time.Now()
				sc, err := prescan(bytes.NewReader(content), nil)
				d := time.Since(t0)
				if err != nil || !sc.typedClean() || sc.lines != int64(n) {
					b.Fatalf("prescan: %v %+v", err, sc)
				}
				if serial {
					ser = append(ser, d)
				} else {
					par = append(par, d)
				}
			}
		}
	}
	b.ReportMetric(median(par).Seconds(), "parallel-s")
	b.ReportMetric(median(ser).Seconds(), "serial-s")
	b.ReportMetric(float64(median(par))/float64(median(ser)), "parallel/serial")
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
