package compare

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestTextLayout checks the text report a reviewer reads: the verdict on
// the first line, every line within 100 columns and without trailing
// spaces (even with long suite and scenario names), skipped gates as one
// line per reason with their count, and latencies with units, never an
// exponent.
func TestTextLayout(t *testing.T) {
	b, c := fixture()
	long := strings.Repeat("very-long-scenario-name-", 5)
	for i := range c.Runs {
		if c.Runs[i].Scenario == "flaky" {
			c.Runs[i].Scenario = long
		}
	}
	for i := range b.Runs {
		if b.Runs[i].Scenario == "flaky" {
			b.Runs[i].Scenario = long
		}
	}
	res := Compare(b, c, Side{Name: strings.Repeat("nightly-baseline-", 4)}, Side{Name: "tonight"}, Options{Iters: 300, Seed: 7})
	Evaluate(res, DefaultGates())
	var out bytes.Buffer
	if err := Write(&out, res, "text"); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if lines[0] != "FAILED: 2 of 14 gates failed, 4 passed, 8 skipped" || !strings.HasPrefix(lines[1], "worst first: masked_success, ") {
		t.Errorf("banner: %q / %q", lines[0], lines[1])
	}
	for i, l := range lines {
		if n := utf8.RuneCountInString(l); n > textWidth {
			t.Errorf("line %d is %d columns: %q", i+1, n, l)
		}
		if strings.TrimRight(l, " ") != l {
			t.Errorf("line %d has trailing spaces: %q", i+1, l)
		}
	}
	text := out.String()
	if strings.Count(text, "\nskip  7 × no data on both sides\n") != 1 || strings.Count(text, "\nskip  ") != 2 {
		t.Errorf("skipped gates not collapsed by reason:\n%s", text)
	}
	for _, bad := range []string{"e+0", "e-0", "e+1"} {
		if strings.Contains(text, bad) {
			t.Errorf("scientific notation %q in:\n%s", bad, text)
		}
	}
	if !strings.Contains(text, "1.20s         1.79s    +598ms [+478ms, +730ms]") {
		t.Errorf("latency without units:\n%s", text)
	}
}
