package stats

import "testing"

func TestNewcombeTableII(t *testing.T) {
	// Newcombe 1998b (Stat Med 17:873–890), Table II, method 10, 95%
	// limits for θ = p1 − p2, the first proportion minus the second. Examples (a) and (b) are also the
	// expectations of the propint R package's test suite. For (c)–(h) the
	// 4-decimal values were re-derived in R 4.2.2 by combining
	// prop.test(correct = FALSE) Wilson limits per method 10 (the table was
	// not to hand); (e)–(h) are also hand-checkable from the closed form
	// Wilson upper limit z²/(n+z²) at x = 0.
	cases := []struct {
		name           string
		x1, n1, x2, n2 int
		lo, hi         float64
	}{
		{"a", 56, 70, 48, 80, 0.0524, 0.3339},
		{"b", 9, 10, 3, 10, 0.1705, 0.8090},
		{"c", 6, 7, 2, 7, 0.0582, 0.8062},
		{"d", 5, 56, 0, 29, -0.0381, 0.1926},
		{"e", 0, 10, 0, 20, -0.1611, 0.2775},
		{"f", 0, 10, 0, 10, -0.2775, 0.2775},
		{"g", 10, 10, 0, 20, 0.6791, 1.0000},
		{"h", 10, 10, 0, 10, 0.6075, 1.0000},
	}
	for _, c := range cases {
		// NewcombeDiff reports p2 − p1 with p1 the baseline, so pass the
		// paper's first proportion as the candidate.
		iv := NewcombeDiff(c.x2, c.n2, c.x1, c.n1, 0.95)
		if !near(iv.Lo, c.lo, 5e-5) || !near(iv.Hi, c.hi, 5e-5) {
			t.Errorf("(%s) %d/%d − %d/%d: [%.4f, %.4f], want [%.4f, %.4f]",
				c.name, c.x1, c.n1, c.x2, c.n2, iv.Lo, iv.Hi, c.lo, c.hi)
		}
		// Swapping the groups negates the interval.
		sw := NewcombeDiff(c.x1, c.n1, c.x2, c.n2, 0.95)
		if !near(sw.Lo, -c.hi, 5e-5) || !near(sw.Hi, -c.lo, 5e-5) {
			t.Errorf("(%s) swapped: [%.4f, %.4f], want [%.4f, %.4f]",
				c.name, sw.Lo, sw.Hi, -c.hi, -c.lo)
		}
	}
}

func TestNewcombeConfidenceLevels(t *testing.T) {
	// R 4.2.2, method 10 from prop.test(correct = FALSE) Wilson limits at
	// conf.level 0.90 and 0.99, example (a) of Newcombe's Table II.
	cases := []struct{ conf, lo, hi float64 }{
		{0.90, 0.07656419154, 0.31364458358},
		{0.99, 0.00537086925, 0.37180843178},
	}
	for _, c := range cases {
		iv := NewcombeDiff(48, 80, 56, 70, c.conf)
		if !near(iv.Lo, c.lo, 1e-9) || !near(iv.Hi, c.hi, 1e-9) || iv.Confidence != c.conf {
			t.Errorf("conf %.2f: %+v, want [%.11f, %.11f]", c.conf, iv, c.lo, c.hi)
		}
	}
	if iv := NewcombeDiff(0, 0, 0, 5, 0.95); iv.Lo != -1 || iv.Hi != 1 {
		t.Errorf("empty baseline: %+v, want [-1, 1]", iv)
	}
}
