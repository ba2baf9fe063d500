package stats

import (
	"math"
	"testing"
)

func TestMinDetectableRateDiff(t *testing.T) {
	cases := []struct {
		n          int
		base       float64
		alpha, pow float64
		want       float64
	}{
		// R 4.2.2 power.prop.test(n = 100, p1 = 0.1, power = 0.8,
		// tol = 1e-12)$p2 = 0.249589644515, i.e. a 15.0pp change. (The
		// default uniroot tol of 1.2e-4 prints 0.2496147346.)
		{100, 0.1, 0.05, 0.8, 0.249589644515 - 0.1},
		// power.prop.test(n = 50, p1 = 0.5, power = 0.8, tol = 1e-12)$p2.
		{50, 0.5, 0.05, 0.8, 0.766830178952 - 0.5},
		// power.prop.test(n = 200, p1 = 0.02, power = 0.8, tol = 1e-12)$p2.
		{200, 0.02, 0, 0, 0.0812338998111 - 0.02},
		// power.prop.test(n = 100, p1 = 0.1, power = 0.9, sig.level = 0.01,
		// tol = 1e-12)$p2.
		{100, 0.1, 0.01, 0.9, 0.319336367306 - 0.1},
	}
	for _, c := range cases {
		got := MinDetectableRateDiff(c.n, c.n, c.base, c.alpha, c.pow)
		if !near(got, c.want, 1e-10) {
			t.Errorf("n=%d base=%v: %.8f, want %.8f", c.n, c.base, got, c.want)
		}
	}
	// Mirror: base 0.9 moves down by the same amount base 0.1 moves up.
	if up, down := MinDetectableRateDiff(80, 120, 0.1, 0, 0), MinDetectableRateDiff(80, 120, 0.9, 0, 0); !near(up, down, 1e-9) {
		t.Errorf("not mirrored: %v vs %v", up, down)
	}
	// Bigger samples detect smaller changes.
	if a, b := MinDetectableRateDiff(50, 50, 0.2, 0, 0), MinDetectableRateDiff(500, 500, 0.2, 0, 0); !(b < a) {
		t.Errorf("n=500 MDE %v not below n=50 MDE %v", b, a)
	}
	if got := MinDetectableRateDiff(2, 2, 0.5, 0, 0); !math.IsInf(got, 1) {
		t.Errorf("n=2: %v, want +Inf", got)
	}
}

func TestMinDetectableShift(t *testing.T) {
	// Hand computed (Python statistics.NormalDist) from Noether's formula:
	// P − ½ = (z₀.₉₇₅ + z₀.₈)/√(12·n1·n2/N); SD = √2·Φ⁻¹(P).
	cases := []struct {
		n1, n2 int
		p, sd  float64
	}{
		{20, 20, 0.7557485701222506, 0.9796144229401293},
		{10, 40, 0.785935593970862, 1.1206195936298011},
		{100, 100, 0.6143742375883448, 0.4111659587227579},
	}
	for _, c := range cases {
		m := MinDetectableShift(c.n1, c.n2, 0.05, 0.8)
		if !near(m.ProbGreater, c.p, 1e-9) || !near(m.SD, c.sd, 1e-9) {
			t.Errorf("%d vs %d: %+v, want P=%v SD=%v", c.n1, c.n2, m, c.p, c.sd)
		}
	}
	m := MinDetectableShift(20, 20, 0, 0)
	if !near(m.Absolute(10), 9.796144229401293, 1e-9) || !near(m.RelativeTo(10, 100), 0.09796144229401293, 1e-9) {
		t.Errorf("conversions: %v %v", m.Absolute(10), m.RelativeTo(10, 100))
	}
	if m := MinDetectableShift(2, 2, 0.05, 0.8); !math.IsInf(m.SD, 1) {
		t.Errorf("2 vs 2: %+v, want +Inf", m)
	}
}

func TestTooSmallToTell(t *testing.T) {
	// benchmath's uTestMinP table (golang.org/x/perf/benchmath/anone.go),
	// the minimum U-test p for n = n: 3 → 0.1, 4 → 0.02857142857142857,
	// 5 → 0.007936507936507936. So at α = 0.05 benchstat needs ≥ 4 each.
	for n, want := range map[int]float64{1: 1, 3: 0.1, 4: 0.02857142857142857, 5: 0.007936507936507936} {
		if got := MinMannWhitneyP(n, n); !near(got, want, 1e-15) {
			t.Errorf("MinMannWhitneyP(%d, %d) = %v, want %v", n, n, got, want)
		}
	}
	// Matches the test itself: 1,2,3 vs 4,5,6 gives exactly the minimum.
	if r := MannWhitney([]float64{1, 2, 3}, []float64{4, 5, 6}); !near(r.P, MinMannWhitneyP(3, 3), 1e-15) {
		t.Errorf("separated samples: P = %v", r.P)
	}
	cases := []struct {
		n1, n2 int
		small  bool
	}{
		// Hand computed 2/C(n1+n2, n1): 2/20 = 0.1, 2/70, 2/36 = 0.056,
		// 2/45 = 0.044.
		{3, 3, true}, {4, 4, false}, {2, 7, true}, {2, 8, false}, {0, 10, true},
	}
	for _, c := range cases {
		if got := TooSmallToTell(c.n1, c.n2, 0.05); got != c.small {
			t.Errorf("TooSmallToTell(%d, %d) = %v, want %v", c.n1, c.n2, got, c.small)
		}
	}
}

func TestPooledSD(t *testing.T) {
	// Hand computed: {1,2,3} has SS 2, {4,6} has SS 2; √(4/3).
	if got := PooledSD([]float64{1, 2, 3}, []float64{4, 6, math.NaN()}); !near(got, math.Sqrt(4.0/3), 1e-15) {
		t.Errorf("PooledSD = %v", got)
	}
	if got := PooledSD([]float64{1}, []float64{2}); !math.IsNaN(got) {
		t.Errorf("two values: %v, want NaN", got)
	}
}
