package metrics

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// The errors view's matrix on the samples: every cell, and each one the
// sum over tools of the report's recovery breakdown of its suite and
// category (the same chains, counted by another query).
func TestErrorMatrix(t *testing.T) {
	ctx := context.Background()
	s := sampleSession(t)
	cells, err := s.ErrorMatrix(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cells {
		got = append(got, fmt.Sprintf("%s %s %s %d", c.Suite, c.Category, c.Outcome, c.Chains))
	}
	want := []string{
		"baseline TRANSIENT after_retry 28",
		"baseline none first_try 782",
		"candidate AUTHN after_switch 5",
		"candidate AUTHN failed 4",
		"candidate AUTHZ failed 18",
		"candidate CONFLICT after_retry 4",
		"candidate CONFLICT after_switch 11",
		"candidate CONFLICT failed 3",
		"candidate EMPTY_CONTENT after_switch 12",
		"candidate EMPTY_CONTENT failed 3",
		"candidate INTERNAL after_retry 3",
		"candidate INTERNAL failed 6",
		"candidate NOT_FOUND after_switch 5",
		"candidate NOT_FOUND failed 4",
		"candidate PARTIAL degraded 9",
		"candidate RATE_LIMIT after_retry 9",
		"candidate TIMEOUT after_retry 25",
		"candidate TIMEOUT failed 5",
		"candidate TRANSIENT after_retry 27",
		"candidate TRANSIENT failed 6",
		"candidate UNAVAILABLE after_switch 10",
		"candidate UNAVAILABLE degraded 5",
		"candidate UNAVAILABLE failed 12",
		"candidate UNKNOWN_OUTCOME after_retry 4",
		"candidate UNKNOWN_OUTCOME after_switch 5",
		"candidate VALIDATION after_switch 20",
		"candidate VALIDATION failed 16",
		"candidate none first_try 839",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("matrix:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	rep := report(t, s)
	sums := map[string]int64{}
	for _, st := range rep.Suites {
		for _, r := range st.Recovery {
			for outcome, n := range map[string]int64{"first_try": r.FirstTry, "after_retry": r.AfterRetry,
				"after_switch": r.AfterSwitch, "degraded": r.Degraded, "failed": r.Failed} {
				if n > 0 {
					sums[st.Suite+" "+r.Category+" "+outcome] += n
				}
			}
		}
	}
	for _, c := range cells {
		k := c.Suite + " " + c.Category + " " + c.Outcome
		if sums[k] != c.Chains {
			t.Errorf("%s: %d chains in the matrix, %d in the recovery breakdown", k, c.Chains, sums[k])
		}
		delete(sums, k)
	}
	if len(sums) > 0 {
		t.Errorf("cells of the recovery breakdown missing from the matrix: %v", sums)
	}
}
