package stats

import (
	"math"
	"slices"
	"testing"
)

func TestHolm(t *testing.T) {
	cases := []struct {
		name     string
		p        []float64
		alpha    float64
		adjusted []float64
		rejected []bool
	}{
		// Wikipedia, "Holm–Bonferroni method", worked example: four
		// hypotheses with p = 0.01, 0.04, 0.03, 0.005 at α = 0.05; H1 and
		// H4 are rejected. Adjusted values from R 4.2.2 p.adjust(p, "holm").
		{"wikipedia", []float64{0.01, 0.04, 0.03, 0.005}, 0.05,
			[]float64{0.03, 0.06, 0.06, 0.02}, []bool{true, false, false, true}},
		// R 4.2.2: p.adjust(c(0.01, 0.02, 0.03, 0.04, 0.05), "holm") →
		// 0.05 0.08 0.09 0.09 0.09 (monotone: the 0.04 and 0.05 rows are
		// lifted to 0.09).
		{"monotone", []float64{0.01, 0.02, 0.03, 0.04, 0.05}, 0.05,
			[]float64{0.05, 0.08, 0.09, 0.09, 0.09}, []bool{true, false, false, false, false}},
		// R 4.2.2: p.adjust(c(0.04, NA, 0.01, 0.01), "holm") →
		// 0.04 NA 0.03 0.03: NA is left out of the family (m = 3).
		{"nan", []float64{0.04, math.NaN(), 0.01, 0.01}, 0.05,
			[]float64{0.04, math.NaN(), 0.03, 0.03}, []bool{true, false, true, true}},
		// Hand computed: caps at 1.
		{"cap", []float64{0.6, 0.9}, 0.05, []float64{1, 1}, []bool{false, false}},
		{"single", []float64{0.03}, 0.05, []float64{0.03}, []bool{true}},
		{"empty", nil, 0.05, []float64{}, []bool{}},
	}
	for _, c := range cases {
		adj, rej := Holm(c.p, c.alpha)
		if len(adj) != len(c.adjusted) {
			t.Fatalf("%s: len %d, want %d", c.name, len(adj), len(c.adjusted))
		}
		for i := range adj {
			same := near(adj[i], c.adjusted[i], 1e-12) ||
				math.IsNaN(adj[i]) && math.IsNaN(c.adjusted[i])
			if !same {
				t.Errorf("%s: adjusted %v, want %v", c.name, adj, c.adjusted)
				break
			}
		}
		if !slices.Equal(rej, c.rejected) {
			t.Errorf("%s: rejected %v, want %v", c.name, rej, c.rejected)
		}
	}
}
