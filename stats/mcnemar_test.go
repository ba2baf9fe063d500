package stats

import "testing"

// Presidential approval, two surveys of the same 1600 people (Agresti
// 2002, Categorical Data Analysis §10.1, Table 10.1; R ?mcnemar.test
// "Performance"): 794 approve/approve, 150 approve/disapprove,
// 86 disapprove/approve, 570 disapprove/disapprove.
const approveThenNot, notThenApprove = 150, 86

func TestMcNemarChiSquareAgresti(t *testing.T) {
	// Without correction: Agresti's z = (86 − 150)/√236 = −4.17,
	// z² = 17.36; R 4.2.2 mcnemar.test(Performance, correct = FALSE) →
	// 17.3559322034, p = 3.09929344105e-05.
	stat, p := McNemarChiSquare(approveThenNot, notThenApprove, false)
	if !near(stat, 17.3559322034, 1e-9) || !near(p, 3.09929344105e-05, 1e-15) {
		t.Errorf("uncorrected: %v, %v", stat, p)
	}
	// With correction (R's default): mcnemar.test(Performance) →
	// 16.8177966102, p = 4.11456228135e-05.
	stat, p = McNemarChiSquare(approveThenNot, notThenApprove, true)
	if !near(stat, 16.8177966102, 1e-9) || !near(p, 4.11456228135e-05, 1e-15) {
		t.Errorf("corrected: %v, %v", stat, p)
	}
}

func TestMcNemar(t *testing.T) {
	cases := []struct {
		b, c int
		test string
		p    float64
	}{
		// Large: continuity-corrected chi-square, R mcnemar.test default.
		{approveThenNot, notThenApprove, McNemarCorrected, 4.11456228135e-05},
		// Small: exact binomial. R 4.2.2 binom.test(3, 15)$p.value.
		{3, 12, McNemarExact, 0.03515625},
		// Hand computed: 0 of 5 at ½ → 2·(1/32).
		{0, 5, McNemarExact, 0.0625},
		{13, 13, McNemarCorrected, 1},
		{0, 0, McNemarExact, 1},
	}
	for _, c := range cases {
		r := McNemar(c.b, c.c)
		if r.Test != c.test || !near(r.P, c.p, 1e-12) {
			t.Errorf("McNemar(%d, %d) = %+v, want %s p = %v", c.b, c.c, r, c.test, c.p)
		}
		if s := McNemar(c.c, c.b); !near(s.P, r.P, 1e-15) {
			t.Errorf("McNemar not symmetric for (%d, %d)", c.b, c.c)
		}
	}
}
