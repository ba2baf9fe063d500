package metrics

import (
	"maps"
	"testing"
)

// A completion claim is masked when the trace refutes it (some gate false)
// and unverified when it cannot check it (no gate false, some unknown); the
// two never overlap, and the unverified ones count per unknown gate.
func TestUnverifiedCompletion(t *testing.T) {
	noTask := func(run string) []ev { return replace(goodRun(run), "run", "run_id", run, runEv(run)) }
	runs := [][]ev{
		goodRun("ok"), // checked and successful: neither
		replace(goodRun("noplan"), "stage", "stage_id", "p"),
		noTask("notask"),
		replace(noTask("neither"), "stage", "stage_id", "p"),
		// no planning stage, but no answer either: refuted, so masked
		replace(replace(goodRun("refuted"), "stage", "stage_id", "p"), "terminal", "run_id", "refuted",
			termEv("refuted", "completed", 1000).with("visible_chars", 0)),
		// unknown success without a completion claim: neither
		replace(replace(goodRun("partial"), "stage", "stage_id", "p"), "terminal", "run_id", "partial",
			termEv("partial", "partial", 1000)),
	}
	s := load(t, jsonl(cat(runs...)...))
	for run, want := range map[string][2]string{"ok": {"false", "false"}, "noplan": {"false", "true"},
		"notask": {"false", "true"}, "neither": {"false", "true"}, "refuted": {"true", "false"}, "partial": {"false", "false"}} {
		wantFact(t, s, run, "masked_success", want[0])
		wantFact(t, s, run, "unverified_completion", want[1])
	}
	m := suiteOf(t, report(t, s), "s").Metrics
	wantRate(t, "masked_success", m.MaskedSuccess, 1, 5)
	wantRate(t, "unverified_completion", m.UnverifiedCompletion, 3, 5)
	if want := map[string]int64{"plan_validity": 2, "evidence_satisfaction": 2}; !maps.Equal(m.UnverifiedCompletion.ByReason, want) {
		t.Errorf("unverified_completion.by_reason = %v, want %v", m.UnverifiedCompletion.ByReason, want)
	}
	if u := m.Success.Unknown; u == nil || *u != 4 {
		t.Errorf("success.unknown = %v, want 4 (the three unverified and the partial one)", u)
	}
	d := mustRate("unverified_completion")
	if got := d.ReasonLabel("plan_validity"); got != "no planning stage" {
		t.Errorf("reason label of plan_validity = %q", got)
	}
	if got := d.ReasonLabel("other"); got != "other" {
		t.Errorf("reason label of an unknown reason = %q, want it unchanged", got)
	}
}

// A rate with an empty denominator, or with every run unknown, says why
// it has no value; any other rate has one.
func TestUnknownBecause(t *testing.T) {
	five := int64(5)
	three := int64(3)
	for _, c := range []struct {
		name string
		r    Rate
		want string
	}{
		{"plan_validity", Rate{Den: 5, Unknown: &five}, "no planning stage"},
		{"plan_validity", Rate{Num: 2, Den: 5, Unknown: &three}, ""},
		{"success", Rate{Den: 5, Unknown: &five}, "no gate false, some gate unknown"},
		{"zero_call_violation", Rate{}, "no runs with an invalid plan"},
		{"masked_success", Rate{}, "no run claimed completion"},
		{"retry_budget_overrun", Rate{}, "no run sets a retry budget"},
		{"duplicate_call", Rate{Den: 4}, ""},
		{"answer_deliverable", Rate{Den: 5}, ""},
	} {
		var m Metrics
		*m.rate(c.name) = c.r
		nr, ok := m.Named(c.name)
		if !ok {
			t.Fatalf("Named(%s) not found", c.name)
		}
		if got := nr.UnknownBecause(); got != c.want {
			t.Errorf("%s %+v: UnknownBecause = %q, want %q", c.name, c.r, got, c.want)
		}
	}
	if _, ok := (&Metrics{}).Named("direct_evidence_grade"); ok {
		t.Error("Named found a rate the report does not hold")
	}
}
