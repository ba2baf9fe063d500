package stats

import (
	"math"
	"testing"
)

func TestWilsonNewcombeExamples(t *testing.T) {
	cases := []struct {
		x, n           int
		pubLo, pubHi   float64 // published, 4 decimals
		exactLo, exact float64 // R, more digits
	}{
		// Newcombe 1998a (Stat Med 17:857–872), worked examples, method 3
		// (Wilson score, no continuity correction). The long values are
		// R 4.2.2 prop.test(x, n, correct = FALSE)$conf.int, which is the
		// Wilson interval.
		{81, 263, 0.2553, 0.3662, 0.2552885199, 0.3662095770},
		{15, 148, 0.0624, 0.1605, 0.06238639953, 0.16048724172},
		{0, 20, 0.0000, 0.1611, 0, 0.1611251581},
		{1, 29, 0.0061, 0.1718, 0.006113214293, 0.171755218793},
	}
	for _, c := range cases {
		iv := Wilson(c.x, c.n, 0.95)
		if !near(iv.Lo, c.pubLo, 5e-5) || !near(iv.Hi, c.pubHi, 5e-5) {
			t.Errorf("Wilson(%d/%d) = [%.4f, %.4f], published [%.4f, %.4f]",
				c.x, c.n, iv.Lo, iv.Hi, c.pubLo, c.pubHi)
		}
		if !near(iv.Lo, c.exactLo, 1e-9) || !near(iv.Hi, c.exact, 1e-9) {
			t.Errorf("Wilson(%d/%d) = [%.10f, %.10f], R [%.10f, %.10f]",
				c.x, c.n, iv.Lo, iv.Hi, c.exactLo, c.exact)
		}
	}
}

func TestWilsonProperties(t *testing.T) {
	if iv := Wilson(0, 0, 0.95); iv.Lo != 0 || iv.Hi != 1 {
		t.Errorf("n=0: %+v, want [0, 1]", iv)
	}
	if iv := Wilson(7, 7, 0); iv.Hi != 1 || iv.Confidence != DefaultConfidence {
		t.Errorf("x=n: %+v, want Hi = 1 at default confidence", iv)
	}
	// Wider at higher confidence; symmetric under x → n−x.
	a, b := Wilson(30, 100, 0.90), Wilson(30, 100, 0.99)
	if !(b.Lo < a.Lo && b.Hi > a.Hi) {
		t.Errorf("0.99 interval %+v not wider than 0.90 %+v", b, a)
	}
	m := Wilson(70, 100, 0.90)
	if !near(m.Lo, 1-a.Hi, 1e-12) || !near(m.Hi, 1-a.Lo, 1e-12) {
		t.Errorf("not symmetric: %+v vs %+v", m, a)
	}
	defer func() {
		if recover() == nil {
			t.Error("Wilson(5, 3) did not panic")
		}
	}()
	Wilson(5, 3, 0.95)
}

func TestNormalHelpers(t *testing.T) {
	// Standard table values (e.g. Abramowitz & Stegun 26.2): z₀.₉₇₅ =
	// 1.959964, z₀.₈ = 0.841621; χ²₁ upper tail at 3.841459 is 0.05.
	if z := zTwoSided(0.95); !near(z, 1.959963985, 1e-9) {
		t.Errorf("z(0.95) = %v", z)
	}
	if z := normalQuantile(0.8); !near(z, 0.8416212336, 1e-9) {
		t.Errorf("z(0.8) = %v", z)
	}
	if p := chiSquare1P(3.841458821); !near(p, 0.05, 1e-9) {
		t.Errorf("chi2 tail = %v", p)
	}
	if p := normalTwoSidedP(1.959963985); !near(p, 0.05, 1e-9) {
		t.Errorf("two-sided p = %v", p)
	}
	if v := math.Exp(logChoose(10, 5)); !near(v, 252, 1e-9) {
		t.Errorf("C(10,5) = %v", v)
	}
}
