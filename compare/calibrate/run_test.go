package calibrate

import (
	"context"
	"testing"
	"time"
)

func TestPairCost(t *testing.T) {
	if testing.Short() {
		t.Skip()
	}
	for _, n := range []int{100, 300, 1000} {
		t0 := time.Now()
		cells, err := Run(context.Background(), Cases(), Config{Sizes: []int{n}, Pairs: []int{2}, FirstSeed: 1, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%d runs: %v for %d cells", n, time.Since(t0), len(cells))
		for _, c := range cells {
			t.Logf("%-50s failed=%d/%d refused=%d change=%.4f gates=%v", c.Case, c.Failed, c.Pairs, c.Refused, c.Change, c.Gates)
		}
	}
}
