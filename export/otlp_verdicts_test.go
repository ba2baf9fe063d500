package export

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/faultlens/faultlens/internal/testdb"
)

// verdictRuns are two runs: a plain agent's (no planning stage, no task:
// its claim is unverified) and a careful-looking one that re-sends a call
// refused as invalid, calls through an open breaker and claims completion
// with an empty answer (a masked success).
const verdictRuns = `
{"type":"run","run_id":"plain","ts":"2026-11-28T02:00:00Z","suite":"s","started_at":"2026-11-28T02:00:00Z"}
{"type":"tool_call","run_id":"plain","ts":"2026-11-28T02:00:01Z","call_id":"p1","action_id":"a1","tool":"search","started_at":"2026-11-28T02:00:00Z","ended_at":"2026-11-28T02:00:01Z","status":"ok"}
{"type":"terminal","run_id":"plain","ts":"2026-11-28T02:00:02Z","terminal":"completed","visible_chars":42}
{"type":"run","run_id":"refuted","ts":"2026-11-28T02:00:00Z","suite":"s","started_at":"2026-11-28T02:00:00Z","task":{"requires_current_evidence":false}}
{"type":"stage","run_id":"refuted","ts":"2026-11-28T02:00:01Z","stage_id":"p","stage":"planning","started_at":"2026-11-28T02:00:00Z","ended_at":"2026-11-28T02:00:01Z","outcome":"ok"}
{"type":"tool_call","run_id":"refuted","ts":"2026-11-28T02:00:02Z","call_id":"c1","action_id":"a1","tool":"fetch","started_at":"2026-11-28T02:00:01Z","ended_at":"2026-11-28T02:00:02Z","status":"error","error":{"category":"VALIDATION","retryable":false}}
{"type":"tool_call","run_id":"refuted","ts":"2026-11-28T02:00:03Z","call_id":"c2","action_id":"a1","attempt":2,"tool":"fetch","started_at":"2026-11-28T02:00:02Z","ended_at":"2026-11-28T02:00:03Z","status":"ok"}
{"type":"tool_call","run_id":"refuted","ts":"2026-11-28T02:00:04Z","call_id":"c3","action_id":"a2","tool":"visit","circuit":"open","started_at":"2026-11-28T02:00:03Z","ended_at":"2026-11-28T02:00:04Z","status":"error"}
{"type":"terminal","run_id":"refuted","ts":"2026-11-28T02:00:05Z","terminal":"completed","visible_chars":0}
`

// The OTLP export carries faultlens' verdicts as gen_ai.evaluation.result
// events, read here with the Collector's pdata: the gates, success and the
// claim on each run's root span, each call's defects on its own span.
func TestOTLPVerdictEvents(t *testing.T) {
	db := testdb.Load(t, testdb.Files(t, verdictRuns)...)
	out := filepath.Join(t.TempDir(), "v.otlp.jsonl")
	if _, err := Write(context.Background(), db, out, Options{Format: "otlp"}); err != nil {
		t.Fatal(err)
	}
	got := evaluationsBySpan(t, out)
	want := map[string][]string{
		"plain invoke_agent": {
			"faultlens.plan_validity unknown - no planning stage",
			"faultlens.evidence_satisfaction unknown - no task or evidence recorded",
			"faultlens.answer_deliverable true 1",
			"faultlens.terminal_committed true 1",
			"faultlens.success unknown - unknown: no planning stage, no task or evidence recorded",
			"faultlens.unverified_completion true 1 claimed completed; unknown: no planning stage, no task or evidence recorded",
		},
		"refuted invoke_agent": {
			"faultlens.plan_validity true 1",
			"faultlens.evidence_satisfaction true 1",
			"faultlens.answer_deliverable false 0",
			"faultlens.terminal_committed true 1",
			"faultlens.success false 0 refuted by answer_deliverable",
			"faultlens.masked_success true 1 claimed completed; refuted by answer_deliverable",
		},
		"refuted execute_tool fetch c2": {"faultlens.invalid_retry true 1 not_retryable, category"},
		"refuted execute_tool visit c3": {"faultlens.breaker_violation true 1 called through an open circuit breaker and not refused at once"},
	}
	if len(got) != len(want) {
		t.Errorf("evaluations on %d spans, want %d: %v", len(got), len(want), got)
	}
	for span, w := range want {
		if !slices.Equal(got[span], w) {
			t.Errorf("%s:\n got %q\nwant %q", span, got[span], w)
		}
	}
}

// evaluationsBySpan reads an OTLP/JSON export line by line with pdata and
// lists each span's evaluation events as "name label value explanation"
// (value "-" when absent), keyed by "run span-name [call id]"; it also
// checks that every event is at its span's end.
func evaluationsBySpan(t *testing.T, path string) map[string][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	out := map[string][]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	var um ptrace.JSONUnmarshaler
	for sc.Scan() {
		td, err := um.UnmarshalTraces(sc.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		spans := td.ResourceSpans().At(0).ScopeSpans().At(0).Spans()
		for i := range spans.Len() {
			s := spans.At(i)
			key := attr(s.Attributes(), "faultlens.run.id")
			if key == "" {
				key = attr(spans.At(0).Attributes(), "faultlens.run.id")
			}
			key += " " + s.Name()
			if id := attr(s.Attributes(), "gen_ai.tool.call.id"); id != "" {
				key += " " + id
			}
			for j := range s.Events().Len() {
				ev := s.Events().At(j)
				if ev.Name() != "gen_ai.evaluation.result" {
					continue
				}
				if ev.Timestamp() != s.EndTimestamp() {
					t.Errorf("%s: evaluation at %v, span ends at %v", key, ev.Timestamp(), s.EndTimestamp())
				}
				a := ev.Attributes()
				value := "-"
				if v, ok := a.Get("gen_ai.evaluation.score.value"); ok {
					value = fmt.Sprint(v.Double())
				}
				line := strings.TrimSpace(strings.Join([]string{attr(a, "gen_ai.evaluation.name"),
					attr(a, "gen_ai.evaluation.score.label"), value, attr(a, "gen_ai.evaluation.explanation")}, " "))
				if a.Len() != 2+boolInt(value != "-")+boolInt(attr(a, "gen_ai.evaluation.explanation") != "") {
					t.Errorf("%s: %s has %d attributes: %v", key, line, a.Len(), a.AsRaw())
				}
				out[key] = append(out[key], line)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func attr(m pcommon.Map, k string) string {
	if v, ok := m.Get(k); ok {
		return v.AsString()
	}
	return ""
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// The verdicts are not agent data: the export of these runs read back gives
// the same report and events as the runs themselves.
func TestOTLPVerdictsRoundTrip(t *testing.T) {
	roundTrip(t, testdb.Files(t, verdictRuns), 9)
}

// An export of one suite carries that suite's verdicts.
func TestOTLPVerdictsOfOneSuite(t *testing.T) {
	other := strings.NewReplacer(`"suite":"s"`, `"suite":"other"`, `"run_id":"`, `"run_id":"o-`).Replace(verdictRuns)
	db := testdb.Load(t, testdb.Files(t, verdictRuns, other)...)
	out := filepath.Join(t.TempDir(), "s.otlp.jsonl")
	if _, err := Write(context.Background(), db, out, Options{Format: "otlp", Suite: "s"}); err != nil {
		t.Fatal(err)
	}
	got := evaluationsBySpan(t, out)
	if n := len(got["plain invoke_agent"]); n != 6 || len(got) != 4 {
		t.Errorf("evaluations of suite s: %d on the plain run, %d spans; want 6 and 4: %v", n, len(got), got)
	}
}
