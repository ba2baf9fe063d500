package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestBootstrapDeterministic(t *testing.T) {
	a, b := expSample(1, 300, 0), expSample(2, 300, 0.5)
	first := BootstrapQuantileDiff(a, b, 0.95, 0, 42, 0)
	again := BootstrapQuantileDiff(a, b, 0.95, 0, 42, 0)
	if first != again {
		t.Fatalf("same seed, different result:\n%+v\n%+v", first, again)
	}
	if first.Iters != DefaultBootstrapIters || first.Interval.Confidence != DefaultConfidence {
		t.Errorf("defaults not applied: %+v", first)
	}
	other := BootstrapQuantileDiff(a, b, 0.95, 0, 43, 0)
	if other.Interval == first.Interval {
		t.Errorf("different seeds gave identical intervals %+v", first.Interval)
	}
	if !first.Interval.Contains(first.Diff) {
		t.Errorf("interval %+v excludes the observed change %v", first.Interval, first.Diff)
	}
}

// TestBootstrapCoverage checks the interval's coverage on a known shift:
// b is a shifted by exactly 1, so the true change in every quantile is 1.
func TestBootstrapCoverage(t *testing.T) {
	const reps = 300
	for _, q := range []float64{0.5, 0.95} {
		covered := 0
		for r := range reps {
			a := expSample(uint64(2*r), 500, 0)
			b := expSample(uint64(2*r+1), 500, 1)
			d := BootstrapQuantileDiff(a, b, q, 1000, uint64(r), 0.95)
			if d.Interval.Contains(1) {
				covered++
			}
		}
		// Nominal 0.95; the binomial SD over 300 replicates is 0.013, and
		// the percentile bootstrap of a quantile runs a little low.
		if rate := float64(covered) / reps; rate < 0.88 || rate > 0.995 {
			t.Errorf("q=%v: coverage %.3f, want about 0.95", q, rate)
		}
	}
}

// TestResampledOrderStatistic checks the O(1) shortcut against the exact
// law of a resample's k-th smallest index: P(index ≤ j) equals
// P(Binomial(n, (j+1)/n) ≥ k), since index ≤ j iff at least k draws fall
// in the first j+1 positions.
func TestResampledOrderStatistic(t *testing.T) {
	const n, draws = 5, 200_000
	xs := []float64{0, 1, 2, 3, 4} // value == index
	s := newSampler(9)
	for k := 1; k <= n; k++ {
		q := float64(k-1) / float64(n-1) // type-7 quantile hitting order statistic k
		counts := make([]int, n)
		for range draws {
			counts[int(s.resampledQuantile(xs, q))]++
		}
		cum := 0
		for j := range n {
			cum += counts[j]
			want := binomialUpper(n, float64(j+1)/n, k)
			got := float64(cum) / draws
			if math.Abs(got-want) > 0.005 { // > 4 SD of a proportion at 200k draws
				t.Errorf("k=%d: P(index ≤ %d) = %.4f, want %.4f", k, j, got, want)
			}
		}
	}
}

// TestResampledQuantileMatchesNaive compares the shortcut with plain
// resampling for an interpolated quantile (h = (n−1)q not an integer).
func TestResampledQuantileMatchesNaive(t *testing.T) {
	const draws = 100_000
	xs := sortedClean(expSample(5, 40, 0))
	s := newSampler(11)
	rng := rand.New(rand.NewPCG(12, 13))
	var fast, naive []float64
	buf := make([]float64, len(xs))
	for range draws {
		fast = append(fast, s.resampledQuantile(xs, 0.9))
		for i := range buf {
			buf[i] = xs[rng.IntN(len(xs))]
		}
		naive = append(naive, Quantile(buf, 0.9))
	}
	for _, p := range []float64{0.05, 0.25, 0.5, 0.75, 0.95} {
		f, g := Quantile(fast, p), Quantile(naive, p)
		if math.Abs(f-g) > 0.05*math.Abs(g)+0.02 {
			t.Errorf("p%.0f of replicate distribution: shortcut %.4f, naive %.4f", 100*p, f, g)
		}
	}
}

func TestBootstrapEdgeCases(t *testing.T) {
	d := BootstrapQuantileDiff(nil, []float64{1}, 0.5, 10, 1, 0.9)
	if !math.IsNaN(d.Diff) || !math.IsNaN(d.Interval.Lo) {
		t.Errorf("empty baseline: %+v", d)
	}
	d = BootstrapQuantileDiff([]float64{2}, []float64{3}, 0.5, 10, 1, 0.9)
	if d.Interval.Lo != 1 || d.Interval.Hi != 1 || d.Rel != 0.5 {
		t.Errorf("single values: %+v", d)
	}
	if d := BootstrapQuantileDiff([]float64{1}, []float64{1}, 0.5, 1e9, 1, 0); d.Iters != MaxBootstrapIters {
		t.Errorf("iters not capped: %d", d.Iters)
	}
	d = BootstrapQuantileDiff([]float64{0, 0}, []float64{1, 1}, 0.5, 10, 1, 0)
	if !math.IsNaN(d.Rel) || !math.IsNaN(d.RelInterval.Lo) {
		t.Errorf("relative change from 0 should be NaN: %+v", d)
	}
}

func BenchmarkBootstrapMillion(b *testing.B) {
	a, c := expSample(1, 1_000_000, 0), expSample(2, 1_000_000, 0.1)
	for b.Loop() {
		BootstrapQuantileDiff(a, c, 0.95, 2000, 1, 0.95)
	}
}

// expSample returns n exponential(1) values plus shift, seeded.
func expSample(seed uint64, n int, shift float64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 99))
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = rng.ExpFloat64() + shift
	}
	return xs
}

// binomialUpper is P(X ≥ k) for X ~ Binomial(n, p), by direct summation.
func binomialUpper(n int, p float64, k int) float64 {
	total := 0.0
	for i := k; i <= n; i++ {
		total += math.Exp(logChoose(n, i)) * math.Pow(p, float64(i)) * math.Pow(1-p, float64(n-i))
	}
	return total
}
