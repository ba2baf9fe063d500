package ui

import (
	"strings"
	"testing"

	"github.com/faultlens/faultlens/metrics"
)

// The overview of five plain-agent runs (no planning stage, no task) says
// their claims are unverified and why, keeps the masked count at zero and
// shows the gates no run could be judged on as unknown, not 0 %.
func TestOverviewUnverified(t *testing.T) {
	five := int64(5)
	var m metrics.Metrics
	m.PlanValidity = metrics.Rate{Den: 5, Rate: ptr(0), Unknown: &five}
	m.EvidenceSatisfaction = metrics.Rate{Den: 5, Rate: ptr(0), Unknown: &five}
	m.AnswerDeliverable = metrics.Rate{Num: 5, Den: 5, Rate: ptr(1)}
	m.TerminalCommitted = metrics.Rate{Num: 5, Den: 5, Rate: ptr(1)}
	m.Success = metrics.Rate{Den: 5, Rate: ptr(0), Unknown: &five}
	m.ClaimedCompleted = metrics.Rate{Num: 5, Den: 5, Rate: ptr(1)}
	m.MaskedSuccess = metrics.Rate{Den: 5, Rate: ptr(0)}
	m.UnverifiedCompletion = metrics.Rate{Num: 5, Den: 5, Rate: ptr(1),
		ByReason: map[string]int64{"plan_validity": 5, "evidence_satisfaction": 5}}
	v := overviewView{sh: &shared{styles: DefaultStyles(true)}}
	got := v.suiteSummary(&metrics.Suite{Suite: "otel", Runs: 5, Metrics: m})
	for _, want := range []string{
		" plan valid  ·················· " + "   0 unknown\n",
		" success     ·················· " + "   0 unknown\n",
		" MASKED SUCCESS         0/5 0.0%\n",
		" unverified             5/5 — no task or evidence recorded, no planning stage\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("overview lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "◀◀") {
		t.Errorf("overview flags a masked success:\n%s", got)
	}
}
