package stats

import "testing"

func TestFisherExactPublished(t *testing.T) {
	cases := []struct {
		name       string
		a, b, c, d int
		want, tol  float64
	}{
		// Fisher's lady tasting tea (R ?fisher.test "TeaTasting"; Agresti
		// 1990 p. 61): two-sided p = 0.4857 (= 34/70, hand-checkable).
		{"tea", 3, 1, 1, 3, 0.4857142857, 1e-9},
		// Convictions of like-sex twins of criminals (R ?fisher.test
		// "Convictions"; Fisher 1962): rows Dizygotic (2 convicted, 15 not)
		// and Monozygotic (10, 3). R 4.2.2: p = 0.0005367241191.
		{"convictions", 2, 15, 10, 3, 0.0005367241191, 1e-12},
		// Same table transposed, as written [[2,10],[15,3]]: same p.
		{"convictions-t", 2, 10, 15, 3, 0.0005367241191, 1e-12},
		// Hand computed: the two extreme tables of C(10,5) = 252 splits are
		// tied in exact arithmetic, so both count: 2/252. Exercises the
		// relative tolerance.
		{"extremes", 0, 5, 5, 0, 2.0 / 252, 1e-12},
		// R 4.2.2: fisher.test(matrix(c(10, 90, 25, 75), 2))$p.value.
		{"larger", 10, 25, 90, 75, 0.008503571479, 1e-11},
		// R 4.2.2: fisher.test(matrix(c(40, 460, 60, 440), 2))$p.value.
		{"500-each", 40, 60, 460, 440, 0.044761502745, 1e-11},
		{"empty", 0, 0, 0, 0, 1, 0},
		{"one-row", 5, 7, 0, 0, 1, 1e-12},
	}
	for _, c := range cases {
		if got := FisherExact(c.a, c.b, c.c, c.d); !near(got, c.want, c.tol) {
			t.Errorf("%s: FisherExact(%d,%d,%d,%d) = %.12g, want %.12g",
				c.name, c.a, c.b, c.c, c.d, got, c.want)
		}
	}
}
