package otlp_test

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/faultlens/faultlens/metrics"
)

// TestTraceloopFixtureMetrics ingests the OpenLLMetry fixture as a user
// would. Its agent plans in a planner task (a planning stage per run, ok,
// so the plan gate is known and valid), and its tool decorator writes no
// span for a tool that throws: the five failed calls of the scenarios are
// not in the trace, so there is nothing to re-send from and no failure to
// recover, and the four calls left each start an action of their own.
func TestTraceloopFixtureMetrics(t *testing.T) {
	s := ingestReport(t, filepath.Join("testdata", "frameworks", "traceloop.jsonl"))
	if s.Runs != 5 {
		t.Fatalf("%d runs, want 5", s.Runs)
	}
	m := s.Metrics
	for _, r := range []struct {
		name     string
		got      metrics.Rate
		num, den int64
	}{
		{"plan validity", m.PlanValidity, 5, 5},
		{"answer deliverable", m.AnswerDeliverable, 5, 5},
		{"invalid retry", m.InvalidRetry, 0, 0},
		{"duplicate call", m.DuplicateCall, 0, 4},
	} {
		if r.got.Num != r.num || r.got.Den != r.den {
			t.Errorf("%s = %d/%d, want %d/%d", r.name, r.got.Num, r.got.Den, r.num, r.den)
		}
	}
	if m.PlanValidity.Unknown == nil || *m.PlanValidity.Unknown != 0 {
		t.Errorf("plan validity unknown = %v, want 0", m.PlanValidity.Unknown)
	}
	if s.UnknownArgs != nil {
		t.Errorf("unknown args = %v: traceloop.entity.input records every call's arguments", s.UnknownArgs)
	}
	wantRecovery := []metrics.RecoveryRow{
		{Category: "none", Tool: "book_flight", Chains: 1, FirstTry: 1},
		{Category: "none", Tool: "search", Chains: 1, FirstTry: 1},
		{Category: "none", Tool: "weather", Chains: 2, FirstTry: 2},
	}
	if !reflect.DeepEqual(s.Recovery, wantRecovery) {
		t.Errorf("recovery rows\n got %+v\nwant %+v", s.Recovery, wantRecovery)
	}
}
