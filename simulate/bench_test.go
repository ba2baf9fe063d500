package simulate

import (
	"io"
	"testing"
)

// BenchmarkGenerate measures fault-injected Mixed generation to io.Discard.
func BenchmarkGenerate(b *testing.B) {
	opts := Options{Runs: 20_000, Seed: 7, Faults: true, Policy: Mixed}
	events := 0
	var bytes int64
	for b.Loop() {
		sum, err := Generate(io.Discard, opts)
		if err != nil {
			b.Fatal(err)
		}
		events += sum.Events
		bytes += sum.Bytes
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(bytes)/float64(events), "bytes/event")
	b.SetBytes(bytes / int64(b.N))
}
