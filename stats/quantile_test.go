package stats

import (
	"math"
	"testing"
)

func TestQuantileType7(t *testing.T) {
	oneToTen := []float64{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}
	cases := []struct {
		xs   []float64
		q    float64
		want float64
	}{
		// R 4.2.2: quantile(1:10, c(0.5, 0.95, 0.9, 0.1)) → 5.50 9.55 9.10 1.90.
		{oneToTen, 0.5, 5.5},
		{oneToTen, 0.95, 9.55},
		{oneToTen, 0.9, 9.1},
		{oneToTen, 0.1, 1.9},
		{oneToTen, 0, 1},
		{oneToTen, 1, 10},
		// R 4.2.2: quantile(x, c(0.5, 0.95)) for the Hollander–Wolfe x
		// sample of ?wilcox.test → 1.415 1.901.
		{hwX, 0.5, 1.415},
		{hwX, 0.95, 1.901},
		{[]float64{42}, 0.95, 42},
		{[]float64{1, math.NaN(), 3}, 0.5, 2},
	}
	for _, c := range cases {
		if got := Quantile(c.xs, c.q); !near(got, c.want, 1e-12) {
			t.Errorf("Quantile(%v, %v) = %v, want %v", c.xs, c.q, got, c.want)
		}
	}
	for _, q := range []float64{-0.1, 1.1, math.NaN()} {
		if got := Quantile(oneToTen, q); !math.IsNaN(got) {
			t.Errorf("Quantile(q=%v) = %v, want NaN", q, got)
		}
	}
	if got := Quantile(nil, 0.5); !math.IsNaN(got) {
		t.Errorf("Quantile(nil) = %v, want NaN", got)
	}
	if oneToTen[0] != 10 {
		t.Error("Quantile modified its input")
	}
}
