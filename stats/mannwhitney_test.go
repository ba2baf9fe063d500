package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Permeability constants from Hollander & Wolfe (1973), p. 69f, as used in
// the example section of R's ?wilcox.test.
var (
	hwX = []float64{0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46}
	hwY = []float64{1.15, 0.88, 0.90, 0.74, 1.21}
)

func TestMannWhitneyExactHollanderWolfe(t *testing.T) {
	r := MannWhitney(hwX, hwY)
	// R 4.2.2: wilcox.test(x, y) → "W = 35, p-value = 0.2544"
	// (two-sided, exact); the ?wilcox.test example prints the one-sided
	// alternative = "greater" p = 0.1272, i.e. half of it.
	if r.U != 35 {
		t.Errorf("U = %v, want 35", r.U)
	}
	if r.Method != MannWhitneyExact || r.Ties {
		t.Errorf("method %q ties %v, want exact without ties", r.Method, r.Ties)
	}
	if !near(r.P, 0.2544123, 1e-6) || !near(r.P/2, 0.1272, 5e-5) {
		t.Errorf("P = %.7f, want 0.2544123 (one-sided 0.1272)", r.P)
	}
	// Swapping the samples mirrors U and keeps P.
	s := MannWhitney(hwY, hwX)
	if s.U != 50-35 || !near(s.P, r.P, 1e-12) {
		t.Errorf("swapped: U = %v P = %v, want 15 and %v", s.U, s.P, r.P)
	}
}

// Ozone (ppb) in May (month 5) and August (month 8), NAs removed, from R's
// airquality data set (New York State Department of Conservation, 1973).
var (
	ozoneMay = []float64{41, 36, 12, 18, 28, 23, 19, 8, 7, 16, 11, 14, 18, 14, 34, 6,
		30, 11, 1, 11, 4, 32, 23, 45, 115, 37}
	ozoneAug = []float64{39, 9, 16, 78, 35, 66, 122, 89, 110, 44, 28, 65, 22, 59, 23,
		31, 44, 21, 9, 45, 168, 73, 76, 118, 84, 85}
)

func TestMannWhitneyNormalOzone(t *testing.T) {
	// ?wilcox.test example: wilcox.test(Ozone ~ Month, data = airquality,
	// subset = Month %in% c(5, 8)) → "W = 127.5, p-value = 0.0001208"
	// (normal approximation with tie and continuity corrections; R 4.2.2
	// prints 0.0001208078308 at more digits).
	xs, ys := sortedClean(ozoneMay), sortedClean(ozoneAug)
	rk := rankPooled(xs, ys)
	if u := rk.sumX/2 - float64(len(xs)*(len(xs)+1))/2; u != 127.5 {
		t.Errorf("U = %v, want 127.5", u)
	}
	if p := normalRankSumP(rk, len(xs), len(ys)); !near(p, 0.0001208078308, 1e-10) {
		t.Errorf("normal P = %.10g, want 0.0001208078308", p)
	}
	// The public function uses the exact conditional test here (26 a side,
	// with ties). Reference: R 4.2.2, exactRankTests 0.8-35,
	// wilcox.exact(may, aug)$p.value = 6.108735189e-05 (Streitberg–Röhmel
	// shift algorithm, an independent implementation).
	r := MannWhitney(ozoneMay, ozoneAug)
	if r.Method != MannWhitneyExact || !r.Ties || r.U != 127.5 {
		t.Errorf("got %+v, want exact with ties and U = 127.5", r)
	}
	if !near(r.P, 6.108735189e-05, 1e-13) {
		t.Errorf("exact P = %.10g, want 6.108735189e-05", r.P)
	}
}

// bruteForceP enumerates every split of the pooled sample (feasible for
// small N) and returns the two-sided permutation p-value of the rank sum,
// an independent check on the dynamic programme.
func bruteForceP(xs, ys []float64) float64 {
	pool := append(append([]float64(nil), xs...), ys...)
	n, m := len(pool), len(xs)
	rank := make([]float64, n) // mid-ranks by direct counting
	for i, v := range pool {
		less, equal := 0, 0
		for _, w := range pool {
			if w < v {
				less++
			} else if w == v {
				equal++
			}
		}
		rank[i] = float64(less) + float64(equal+1)/2
	}
	sum := func(mask int) float64 {
		s := 0.0
		for i := range n {
			if mask&(1<<i) != 0 {
				s += rank[i]
			}
		}
		return s
	}
	mean := float64(m*(n+1)) / 2
	obs := math.Abs(sum(1<<m-1) - mean)
	var hit, all int
	for mask := range 1 << n {
		if popcount(mask) != m {
			continue
		}
		all++
		if math.Abs(sum(mask)-mean) >= obs-1e-9 {
			hit++
		}
	}
	return float64(hit) / float64(all)
}

func popcount(x int) int {
	c := 0
	for ; x != 0; x &= x - 1 {
		c++
	}
	return c
}

func TestMannWhitneyExactMatchesEnumeration(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		n1, n2 := 1+rng.IntN(7), 1+rng.IntN(7)
		levels := 2 + rng.IntN(12) // few levels → many ties
		xs, ys := make([]float64, n1), make([]float64, n2)
		for i := range xs {
			xs[i] = float64(rng.IntN(levels))
		}
		for i := range ys {
			ys[i] = float64(rng.IntN(levels) + rng.IntN(3))
		}
		got := MannWhitney(xs, ys)
		want := bruteForceP(xs, ys)
		if !near(got.P, want, 1e-12) {
			t.Fatalf("trial %d: %v vs %v: P = %v, enumeration %v", trial, xs, ys, got.P, want)
		}
	}
}

func TestMannWhitneyEdgeCases(t *testing.T) {
	if r := MannWhitney(nil, []float64{1}); r.Method != MannWhitneyNone || !math.IsNaN(r.P) {
		t.Errorf("empty sample: %+v", r)
	}
	if r := MannWhitney([]float64{3, 3}, []float64{3, 3, 3}); r.P != 1 {
		t.Errorf("all equal: P = %v, want 1", r.P)
	}
	if r := MannWhitney([]float64{1, math.NaN(), 2}, []float64{5, 6}); r.N1 != 2 {
		t.Errorf("NaN not dropped: %+v", r)
	}
	// Smallest possible p for 3 vs 3 is 2/C(6,3) = 0.1 (hand computed).
	if r := MannWhitney([]float64{1, 2, 3}, []float64{4, 5, 6}); !near(r.P, 0.1, 1e-12) {
		t.Errorf("separated 3 vs 3: P = %v, want 0.1", r.P)
	}
}

func TestMannWhitneyLargeUsesNormal(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	a, b := make([]float64, 400), make([]float64, 400)
	for i := range a {
		a[i] = rng.NormFloat64()
		b[i] = rng.NormFloat64() + 0.3
	}
	r := MannWhitney(a, b)
	if r.Method != MannWhitneyNormal || r.P > 1e-3 || r.ProbGreater > 0.5 {
		t.Errorf("shift of 0.3 SD at n=400: %+v", r)
	}
}

func BenchmarkMannWhitneyExact50(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	x, y := make([]float64, 50), make([]float64, 50)
	for i := range x {
		x[i], y[i] = float64(rng.IntN(30)), float64(rng.IntN(30))
	}
	for b.Loop() {
		MannWhitney(x, y)
	}
}

// near reports whether got is within tol of want.
func near(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol
}
