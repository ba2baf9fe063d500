package compare

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/faultlens/faultlens/metrics"
)

// TestLatencyRowsIgnoreInputOrder: the database returns the calls of one
// tool in one run in no fixed order, so the rows (bootstrap interval, p
// and the pooled SD behind min_detectable) must not depend on it.
func TestLatencyRowsIgnoreInputOrder(t *testing.T) {
	mk := func(n int, scale float64) []metrics.LatencySample {
		var out []metrics.LatencySample
		for i := 0; i < n; i++ {
			v := scale * float64((i*7919)%113+1) / 3
			out = append(out, metrics.LatencySample{RunID: fmt.Sprint("r", i%5), Scope: "tool", Name: "search", ExecMs: &v})
		}
		return out
	}
	reversed := func(s []metrics.LatencySample) []metrics.LatencySample {
		out := make([]metrics.LatencySample, len(s))
		for i := range s {
			out[len(s)-1-i] = s[i]
		}
		return out
	}
	base, cand := mk(150, 1), mk(140, 1.3)
	o := Options{}.withDefaults()
	rows1, _ := latencyRows(base, cand, nil, "", nil, o)
	rows2, _ := latencyRows(reversed(base), reversed(cand), nil, "", nil, o)
	if len(rows1) != 2 {
		t.Fatalf("want a p50 and a p95 row, got %d", len(rows1))
	}
	if !reflect.DeepEqual(rows1, rows2) {
		t.Errorf("rows depend on the order of the samples:\n%+v\n%+v", rows1, rows2)
	}
}
