package stats

import (
	"math"
	"testing"
)

func TestMark(t *testing.T) {
	cases := []struct {
		p, alpha, base, cand float64
		want                 string
	}{
		// Same rules as benchmath's Comparison.FormatDelta.
		{0.2, 0.05, 100, 120, "~"},
		{0.05, 0.05, 100, 120, "+20.00%"},
		{0.01, 0, 100, 87.5, "-12.50%"},
		{0.01, 0.05, 5, 5, "0.00%"},
		{0.01, 0.05, 0, 5, "?"},
		{math.NaN(), 0.05, 1, 2, "~"},
	}
	for _, c := range cases {
		if got := Mark(c.p, c.alpha, c.base, c.cand); got != c.want {
			t.Errorf("Mark(%v, %v, %v, %v) = %q, want %q", c.p, c.alpha, c.base, c.cand, got, c.want)
		}
	}
}

func TestQuantileDiffMark(t *testing.T) {
	cases := []struct {
		d    QuantileDiff
		want string
	}{
		{QuantileDiff{Diff: 5, Rel: 0.05, Interval: Interval{Lo: -1, Hi: 9}}, "~"},
		{QuantileDiff{Diff: 5, Rel: 0.05, Interval: Interval{Lo: 2, Hi: 9}}, "+5.00%"},
		{QuantileDiff{Diff: -3, Rel: math.NaN(), Interval: Interval{Lo: -4, Hi: -2}}, "-3"},
		{QuantileDiff{Interval: Interval{Lo: math.NaN(), Hi: math.NaN()}}, "~"},
	}
	for _, c := range cases {
		if got := c.d.Mark(); got != c.want {
			t.Errorf("%+v.Mark() = %q, want %q", c.d, got, c.want)
		}
	}
}
