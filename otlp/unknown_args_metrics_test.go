package otlp_test

import (
	"maps"
	"path/filepath"
	"testing"
)

// TestUnknownArgsOTLP is the OTLP route of "unknown is never equal": in
// retries.jsonl the two calc spans record no arguments, so the second is
// neither a re-send of the failed first nor a duplicate; both are counted
// as calls of unknown arguments. The duplicates are the three calls that
// repeat known equal arguments of an earlier action: the second fetch, the
// last search and the second geo action.
func TestUnknownArgsOTLP(t *testing.T) {
	s := ingestReport(t, filepath.Join("testdata", "retries.jsonl"))
	if want := map[string]int64{"calc": 2}; !maps.Equal(s.UnknownArgs, want) {
		t.Errorf("unknown args per tool = %v, want %v", s.UnknownArgs, want)
	}
	m := s.Metrics
	// Re-sends: search ×2, lookup, geo; none of calc.
	if m.InvalidRetry.Den != 4 {
		t.Errorf("re-sends judged = %d, want 4", m.InvalidRetry.Den)
	}
	if m.DuplicateCall.Num != 3 || m.DuplicateCall.Den != 15 {
		t.Errorf("duplicate call = %d/%d, want 3/15", m.DuplicateCall.Num, m.DuplicateCall.Den)
	}
}
