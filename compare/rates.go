package compare

import "github.com/faultlens/faultlens/metrics"

// rateDef is one rate metric as per-run numerator and denominator counts,
// summed over runs. Call-level rates (invalid_retry, ...) pool the calls of
// all runs, as the report does.
type rateDef struct {
	name  string
	count func(r *metrics.RunFact) (num, den int64)
}

func is(b *bool) bool { return b != nil && *b }

func one(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func claimedCompleted(r *metrics.RunFact) bool { return r.Claimed != nil && *r.Claimed == "completed" }

// rateDefs lists the compared rates in report order.
var rateDefs = []rateDef{
	{"plan_validity", func(r *metrics.RunFact) (int64, int64) { return one(is(r.PlanValid)), 1 }},
	{"evidence_satisfaction", func(r *metrics.RunFact) (int64, int64) { return one(is(r.EvidenceSatisfied)), 1 }},
	{"answer_deliverable", func(r *metrics.RunFact) (int64, int64) { return one(is(r.AnswerDeliverable)), 1 }},
	{"terminal_committed", func(r *metrics.RunFact) (int64, int64) { return one(is(r.TerminalCommitted)), 1 }},
	{"success", func(r *metrics.RunFact) (int64, int64) { return one(is(r.Success)), 1 }},
	{"claimed_completed", func(r *metrics.RunFact) (int64, int64) { return one(claimedCompleted(r)), 1 }},
	{"masked_success", func(r *metrics.RunFact) (int64, int64) {
		return one(is(r.MaskedSuccess)), one(claimedCompleted(r))
	}},
	{"undisclosed_degradation", func(r *metrics.RunFact) (int64, int64) {
		return one(is(r.UndisclosedDegradation)), one(claimedCompleted(r))
	}},
	{"zero_call_violation", func(r *metrics.RunFact) (int64, int64) {
		return one(is(r.ZeroCallViolation)), one(r.PlanValid != nil && !*r.PlanValid)
	}},
	{"seal_violation", func(r *metrics.RunFact) (int64, int64) { return one(is(r.SealViolation)), 1 }},
	{"expectation_conformance", func(r *metrics.RunFact) (int64, int64) {
		return one(is(r.ExpectationMet)), one(r.ExpectationMet != nil)
	}},
	{"retry_budget_overrun", func(r *metrics.RunFact) (int64, int64) {
		return one(is(r.RetryBudgetOverrun)), one(r.RetryBudgetOverrun != nil)
	}},
	{"deadline_overrun", func(r *metrics.RunFact) (int64, int64) {
		return one(is(r.DeadlineOverrun)), one(r.DeadlineOverrun != nil)
	}},
	{"invalid_retry", func(r *metrics.RunFact) (int64, int64) { return r.InvalidResends, r.Resends }},
	{"unknown_outcome_resend", func(r *metrics.RunFact) (int64, int64) { return r.UnknownOutcomeResends, r.Resends }},
	{"duplicate_call", func(r *metrics.RunFact) (int64, int64) { return r.Duplicates, r.ToolCalls }},
	{"breaker_violation", func(r *metrics.RunFact) (int64, int64) { return r.BreakerViolations, r.CircuitOpenCalls }},
	{"degraded_evidence_grade", func(r *metrics.RunFact) (int64, int64) { return r.DegradedEvidenceOK, r.DegradedEvidence }},
	{"direct_evidence_grade", func(r *metrics.RunFact) (int64, int64) { return r.DirectEvidenceOK, r.DirectEvidence }},
}

// RateNames lists the rate metric keys a gate may name.
func RateNames() []string {
	out := make([]string, len(rateDefs))
	for i, d := range rateDefs {
		out[i] = d.name
	}
	return out
}

// tally sums one rate over runs.
func tally(d rateDef, runs []*metrics.RunFact) (num, den int) {
	for _, r := range runs {
		n, m := d.count(r)
		num += int(n)
		den += int(m)
	}
	return num, den
}
