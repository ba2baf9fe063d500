package export

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/faultlens/faultlens/ingest"
	"github.com/faultlens/faultlens/internal/testdb"
)

// The TypeScript example of docs/otel-convention.md, run with the
// OpenTelemetry JS SDK and written by its own OTLP/JSON serializer
// (scripts/otel-convention-example; `npm ci && npm run fixture` refreshes
// the fixture): two runs of a tiny agent whose write times out once and is
// re-sent with its idempotency key. Every figure the agent states is read.
func TestOTLPConventionTypeScriptSDK(t *testing.T) {
	ctx := context.Background()
	db := testdb.Store(t)
	res, err := ingest.Files(ctx, db, []string{"../otlp/testdata/convention/ts-sdk.json"}, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Format != "otlp" || res[0].Events != 11 || res[0].Rejected != 0 {
		t.Fatalf("ingest: %+v, want 11 events (2 runs, 2 stages, 3 tool calls, 2 evidence, 2 terminals)", res[0])
	}
	var rep struct {
		Suites []struct {
			Suite              string
			Runs               int
			Metrics            map[string]struct{ Num, Den int }
			RetryAmplification float64 `json:"retry_amplification"`
			Recovery           []struct {
				Category, Tool string
				Chains         int
				AfterRetry     int `json:"after_retry"`
			}
		}
	}
	if err := json.Unmarshal([]byte(reportJSON(t, db)), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Suites) != 1 {
		t.Fatalf("suites: %+v", rep.Suites)
	}
	s := rep.Suites[0]
	if s.Suite != "ts-example" || s.Runs != 2 || s.RetryAmplification != 1.5 {
		t.Errorf("suite %s, %d runs, amplification %v; want ts-example, 2, 1.5", s.Suite, s.Runs, s.RetryAmplification)
	}
	want := map[string][2]int{
		"plan_validity": {2, 2}, "evidence_satisfaction": {2, 2}, "answer_deliverable": {2, 2},
		"terminal_committed": {2, 2}, "success": {2, 2}, "masked_success": {0, 2},
		"invalid_retry": {0, 1}, "duplicate_call": {0, 3}, "retry_budget_overrun": {0, 2}, "seal_violation": {0, 2},
	}
	for name, w := range want {
		if m := s.Metrics[name]; m.Num != w[0] || m.Den != w[1] {
			t.Errorf("%s = %d/%d, want %d/%d", name, m.Num, m.Den, w[0], w[1])
		}
	}
	// One chain met the timeout and recovered by the re-send; the other
	// succeeded at once.
	chains := map[string][2]int{}
	for _, r := range s.Recovery {
		chains[r.Category+"/"+r.Tool] = [2]int{r.Chains, r.AfterRetry}
	}
	if chains["TIMEOUT/save_note"] != [2]int{1, 1} || chains["none/save_note"] != [2]int{1, 0} || len(chains) != 2 {
		t.Errorf("recovery (chains, after_retry) by category/tool: %v", chains)
	}
}
