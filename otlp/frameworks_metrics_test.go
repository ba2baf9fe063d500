package otlp_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/faultlens/faultlens/internal/testdb"
	"github.com/faultlens/faultlens/metrics"
)

// TestFrameworkFixtureMetrics ingests each framework fixture as a user
// would and asserts the report's figures. The frameworks ran the same
// five scenarios (scripts/otel-fixtures/scenarios.mjs), so they must give
// the same figures: that is the point of reading each as it emits.
func TestFrameworkFixtureMetrics(t *testing.T) {
	for _, name := range []string{"aisdk5", "aisdk6", "aisdk7", "langgraph", "openai-agents", "contrib-openai"} {
		t.Run(name, func(t *testing.T) {
			// The OpenAI Agents SDK records no final answer: no terminal,
			// so nothing deliverable, nothing claimed, success false.
			answered := int64(5)
			successUnknown := int64(5)
			if name == "openai-agents" {
				answered, successUnknown = 0, 0
			}
			// The hand-written loop over the contrib OpenAI instrumentation
			// plans in a plan span: the plan gate is known, and valid.
			planValid, planUnknown := int64(0), int64(5)
			if name == "contrib-openai" {
				planValid, planUnknown = 5, 0
			}
			path := filepath.Join("testdata", "frameworks", name+".jsonl")
			s := ingestReport(t, path)
			if s.Runs != 5 {
				t.Fatalf("%d runs, want 5", s.Runs)
			}
			m := s.Metrics
			for _, r := range []struct {
				name          string
				got           metrics.Rate
				num, den, unk int64
			}{
				// No plan span (but in contrib-openai) and no task: the
				// plan and evidence gates are unknown.
				{"plan validity", m.PlanValidity, planValid, 5, planUnknown},
				{"evidence satisfaction", m.EvidenceSatisfaction, 0, 5, 5},
				// Every run ends with finish reason stop and a non-empty answer.
				{"answer deliverable", m.AnswerDeliverable, answered, 5, -1},
				{"terminal committed", m.TerminalCommitted, answered, 5, -1},
				{"success", m.Success, 0, 5, successUnknown},
				{"claimed completed", m.ClaimedCompleted, answered, 5, -1},
				// A claimed completion the trace cannot check is unverified,
				// not masked: nothing refutes it.
				{"masked success", m.MaskedSuccess, 0, answered, -1},
				{"unverified completion", m.UnverifiedCompletion, answered, answered, -1},
				{"missing terminal", m.MissingTerminal, 5 - answered, 5, -1},
				// Three re-sends (search after TIMEOUT, weather after RATE_LIMIT
				// across a parallel call, book_flight after VALIDATION); only
				// the last is invalid.
				{"invalid retry", m.InvalidRetry, 1, 3, -1},
				// The fixed-args booking and the re-sends are not duplicates.
				{"duplicate call", m.DuplicateCall, 0, 10, -1},
			} {
				if r.got.Num != r.num || r.got.Den != r.den {
					t.Errorf("%s = %d/%d, want %d/%d", r.name, r.got.Num, r.got.Den, r.num, r.den)
				}
				if r.unk >= 0 && (r.got.Unknown == nil || *r.got.Unknown != r.unk) {
					t.Errorf("%s unknown = %v, want %d", r.name, r.got.Unknown, r.unk)
				}
			}
			if want := map[string]int64{"not_retryable": 1, "category": 1, "before_retry_after": 0, "unknown_outcome_resend": 0, "write_without_key": 0}; !reflect.DeepEqual(m.InvalidRetry.ByReason, want) {
				t.Errorf("invalid retry reasons = %v, want %v", m.InvalidRetry.ByReason, want)
			}
			// 10 tool calls over 7 logical actions.
			if s.RetryAmplification == nil || *s.RetryAmplification != 10.0/7.0 {
				t.Errorf("retry amplification = %v, want 10/7", s.RetryAmplification)
			}
			wantRecovery := []metrics.RecoveryRow{
				{Category: "INTERNAL", Tool: "lookup_order", Chains: 1, Failed: 1},
				{Category: "RATE_LIMIT", Tool: "weather", Chains: 1, AfterRetry: 1},
				{Category: "TIMEOUT", Tool: "search", Chains: 1, AfterRetry: 1},
				{Category: "VALIDATION", Tool: "book_flight", Chains: 2, Failed: 2},
				{Category: "none", Tool: "book_flight", Chains: 1, FirstTry: 1},
				{Category: "none", Tool: "weather", Chains: 1, FirstTry: 1},
			}
			if !reflect.DeepEqual(s.Recovery, wantRecovery) {
				t.Errorf("recovery rows\n got %+v\nwant %+v", s.Recovery, wantRecovery)
			}
			perTool := map[string]int64{}
			for _, l := range s.Latency {
				if l.Scope == "tool" {
					perTool[l.Name] = l.N
				}
			}
			if want := truthPerTool(t, name); !reflect.DeepEqual(perTool, want) {
				t.Errorf("tool calls per tool = %v, truth %v", perTool, want)
			}
		})
	}
}

// ingestReport ingests one file into a fresh database and returns its one suite.
func ingestReport(t *testing.T, paths ...string) metrics.Suite {
	t.Helper()
	db := testdb.Store(t)
	testdb.Clean(t, testdb.Ingest(t, db, paths...))
	rep := reportOf(t, db)
	if len(rep.Suites) != 1 {
		t.Fatalf("%d suites, want 1", len(rep.Suites))
	}
	return rep.Suites[0]
}

// reportOf is the report of what db holds, from a session closed when the
// test ends.
func reportOf(t *testing.T, db *sql.DB) *metrics.Report {
	t.Helper()
	rep, err := testdb.Session(t, db, metrics.Open).Report(context.Background(), metrics.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// truthPerTool reads the generator's count of tool calls per tool.
func truthPerTool(t *testing.T, name string) map[string]int64 {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "frameworks", name+".truth.json"))
	if err != nil {
		t.Fatal(err)
	}
	var tr struct {
		Totals struct {
			PerTool map[string]int64 `json:"tool_calls_per_tool"`
		} `json:"totals"`
	}
	if err := json.Unmarshal(b, &tr); err != nil {
		t.Fatal(err)
	}
	return tr.Totals.PerTool
}
