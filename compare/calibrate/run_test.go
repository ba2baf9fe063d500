package calibrate

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
)

// TestSmallCalibration runs a few cases at 100 runs a side on two fixed
// seeds through the whole pipeline (simulate, DuckDB, evidence, compare)
// and checks the exact outcome of every pair: which gates failed.
func TestSmallCalibration(t *testing.T) {
	if testing.Short() {
		t.Skip("ingests 2 × 14 simulated suites")
	}
	only := []string{
		"A/A careful, fault-free",
		"success −10 points",
		"one masked success",
		"invalid re-sends (≈25 % of re-sends) vs a retry-free baseline",
		"A/A 5 % naive baseline (must_be_zero)",
		"A/A 5 % naive baseline (must_not_increase)",
		"careful under faults vs fault-free (conformance)",
		"conformance −10 points vs fault-free",
	}
	cells, err := Run(context.Background(), Cases(), Config{Sizes: []int{100}, Pairs: []int{2}, FirstSeed: 1, Workers: 2, Only: only})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cells {
		got = append(got, fmt.Sprintf("%s: %d/%d [%s]", c.Case, c.Failed, c.Pairs, gateList(c.Gates)))
	}
	// At 100 runs a side the invalid re-sends (4 of 15 re-sends on seed 1)
	// are beyond the 5 % margin but not significantly within a family of
	// 11 gated tests; a 5 % naive baseline breaks a zero rule once.
	want := []string{
		"A/A careful, fault-free: 0/4 []",
		"success −10 points: 2/2 [success×2]",
		"one masked success: 2/2 [masked_success×2]",
		"invalid re-sends (≈25 % of re-sends) vs a retry-free baseline: 0/2 []",
		"A/A 5 % naive baseline (must_be_zero): 1/4 [seal_violation×1]",
		"A/A 5 % naive baseline (must_not_increase): 0/4 []",
		"careful under faults vs fault-free (conformance): 0/4 []",
		"conformance −10 points vs fault-free: 2/2 [expectation_conformance×2]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("outcomes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func gateList(m map[string]int) string {
	var out []string
	for k, v := range m {
		out = append(out, fmt.Sprintf("%s×%d", k, v))
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}
