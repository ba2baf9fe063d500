package metrics

import "slices"

// Better says which way a rate moves when the agent gets better.
type Better int

const (
	// Neither means the rate describes the runs without judging them.
	Neither Better = iota
	// Higher means a rise is an improvement (the gates, conformance).
	Higher
	// Lower means a rise is a regression (defects).
	Lower
)

// Group is the part of a report that shows a rate.
type Group string

const (
	// GroupFunnel holds the four gates of a run and their conjunction.
	GroupFunnel Group = "funnel"
	// GroupClaims holds the claims the agent made that the trace refutes.
	GroupClaims Group = "claims"
	// GroupViolations holds the rule violations of the calls and runs.
	GroupViolations Group = "violations"
	// GroupBudgets holds the budgets and the expected reactions to faults.
	GroupBudgets Group = "budgets"
	// GroupContext holds rates that explain others (denominators, unknowns).
	GroupContext Group = "context"
	// GroupEvidence holds the share of good evidence per path (compare).
	GroupEvidence Group = "evidence"
)

// RateDef defines one rate.
type RateDef struct {
	// Name is the JSON key, the SQL alias prefix and the gate key.
	Name string
	// Label names the rate for people; Of says what the denominator
	// counts ("" when the label says it).
	Label, Of string
	// Better is the direction of improvement; Defect marks counts of
	// defects that should be zero (flagged when non-zero).
	Better Better
	Defect bool
	Group  Group
	// Reported rates are computed by queries/metrics_rates.sql and held in
	// the Metrics field whose JSON name is Name.
	Reported bool
	// Unknown: the SQL also returns <name>__unknown, the runs that could
	// not be judged. Reasons: it returns <name>__<reason> for each.
	Unknown bool
	Reasons []string
	// CompareRow is the rate's position (from 1) in compare's tables; 0
	// when compare does not test it. PerRun is then its per-run count,
	// summed over runs (call-level rates pool the calls of all runs, as
	// the SQL does).
	CompareRow int
	PerRun     func(r *RunFact) (num, den int64)
	// FaultSensitive: an injected fault moves the rate by design, so a
	// faulted candidate is not gated on it against a fault-free baseline.
	FaultSensitive bool
	// UnknownWhy says, for a rate that can be unknown, why a run has no
	// verdict on it; a rate whose reasons name gates shows these.
	UnknownWhy string
	// Empty says why the denominator can be empty ("no " + Of when unset).
	Empty string
}

// registry is the one definition of every rate faultlens reports or
// compares; every consumer derives from it: the SQL aliases of
// queries/metrics_rates.sql (<name>__num, __den, __unknown, __<reason>), the
// fields of Metrics and their JSON, the rows of the report (package report),
// the rows compare tests and the rate keys a gates file may name.
//
// The rates are listed by group, each group in the order the text and HTML
// reports show it; the JSON, CSV and Markdown rate tables follow the field
// order of Metrics (the contract's), compare follows CompareRow.
//
// Adding a rate: an entry here; when Reported, its columns in
// queries/metrics_rates.sql and a Rate field of Metrics tagged with its name;
// when compared, the next CompareRow and a PerRun count over RunFact. The
// tests of metrics, report and compare name whatever is still missing.
var registry = []RateDef{
	// The four gates of a run and their conjunction: the funnel.
	{Name: "plan_validity", Label: "plan valid", Better: Higher, Group: GroupFunnel, Reported: true, Unknown: true,
		UnknownWhy: "no planning stage", CompareRow: 1, FaultSensitive: true, PerRun: runsWhere(func(r *RunFact) bool { return is(r.PlanValid) })},
	{Name: "evidence_satisfaction", Label: "evidence satisfied", Better: Higher, Group: GroupFunnel, Reported: true, Unknown: true,
		UnknownWhy: "no task or evidence recorded", CompareRow: 2, FaultSensitive: true, PerRun: runsWhere(func(r *RunFact) bool { return is(r.EvidenceSatisfied) })},
	{Name: "answer_deliverable", Label: "answer deliverable", Better: Higher, Group: GroupFunnel, Reported: true,
		CompareRow: 3, FaultSensitive: true, PerRun: runsWhere(func(r *RunFact) bool { return is(r.AnswerDeliverable) })},
	{Name: "terminal_committed", Label: "terminal committed", Better: Higher, Group: GroupFunnel, Reported: true,
		CompareRow: 4, FaultSensitive: true, PerRun: runsWhere(func(r *RunFact) bool { return is(r.TerminalCommitted) })},
	{Name: "success", Label: "success (all four)", Better: Higher, Group: GroupFunnel, Reported: true, Unknown: true,
		UnknownWhy: "no gate false, some gate unknown", CompareRow: 5, FaultSensitive: true, PerRun: runsWhere(func(r *RunFact) bool { return is(r.Success) })},

	// Claims the trace refutes or cannot check, over the runs that claimed
	// completion. The per-run counts read success and the claim rather than
	// the masked_success column, so that a baseline saved before masked
	// meant "refuted" is judged as the candidate is.
	{Name: "masked_success", Label: "masked success", Of: "claimed completed", Better: Lower, Defect: true, Group: GroupClaims, Reported: true,
		Empty: "no run claimed completion", CompareRow: 7, PerRun: func(r *RunFact) (int64, int64) {
			return one(claimedCompleted(r) && r.Success != nil && !*r.Success), one(claimedCompleted(r))
		}},
	// Not a defect: nothing in the trace refutes the claim, nor backs it.
	// Its reasons are the gates that were unknown.
	{Name: "unverified_completion", Label: "unverified completion", Of: "claimed completed", Better: Lower, Group: GroupClaims,
		Reported: true, Reasons: []string{"evidence_satisfaction", "plan_validity"}, Empty: "no run claimed completion",
		CompareRow: 8, PerRun: func(r *RunFact) (int64, int64) {
			return one(claimedCompleted(r) && r.Success == nil), one(claimedCompleted(r))
		}},
	{Name: "undisclosed_degradation", Label: "undisclosed degradation", Of: "claimed completed", Better: Lower, Defect: true,
		Group: GroupClaims, Reported: true, Empty: "no run claimed completion",
		CompareRow: 9, PerRun: func(r *RunFact) (int64, int64) {
			return one(is(r.UndisclosedDegradation)), one(claimedCompleted(r))
		}},

	// Rule violations of runs and calls.
	{Name: "zero_call_violation", Label: "zero-call violations", Of: "runs with an invalid plan", Better: Lower, Defect: true,
		Group: GroupViolations, Reported: true,
		CompareRow: 10, PerRun: func(r *RunFact) (int64, int64) {
			return one(is(r.ZeroCallViolation)), one(r.PlanValid != nil && !*r.PlanValid)
		}},
	{Name: "seal_violation", Label: "seal violations", Of: "runs", Better: Lower, Defect: true, Group: GroupViolations, Reported: true,
		CompareRow: 11, PerRun: runsWhere(func(r *RunFact) bool { return is(r.SealViolation) })},
	{Name: "breaker_violation", Label: "breaker violations", Of: "calls through an open breaker", Better: Lower, Defect: true,
		Group: GroupViolations, Reported: true,
		CompareRow: 18, PerRun: func(r *RunFact) (int64, int64) { return r.BreakerViolations, r.CircuitOpenCalls }},
	{Name: "duplicate_call", Label: "duplicate calls", Of: "tool calls", Better: Lower, Defect: true, Group: GroupViolations, Reported: true,
		CompareRow: 17, PerRun: func(r *RunFact) (int64, int64) { return r.Duplicates, r.ToolCalls }},
	{Name: "invalid_retry", Label: "invalid retries", Of: "re-sends", Better: Lower, Defect: true, Group: GroupViolations,
		Reported: true, Reasons: []string{"not_retryable", "category", "write_without_key", "unknown_outcome_resend", "before_retry_after"},
		CompareRow: 15, PerRun: func(r *RunFact) (int64, int64) { return r.InvalidResends, r.Resends }},
	{Name: "unknown_outcome_resend", Label: "unknown-outcome re-sends", Of: "re-sends", Better: Lower, Defect: true,
		Group: GroupViolations, Reported: true,
		CompareRow: 16, PerRun: func(r *RunFact) (int64, int64) { return r.UnknownOutcomeResends, r.Resends }},

	// Budgets and the expected reactions to faults. The overruns count over
	// the runs that set the budget, which the label names: Of stays empty.
	{Name: "retry_budget_overrun", Label: "retry budget overrun", Better: Lower, Defect: true, Group: GroupBudgets, Reported: true,
		Empty:      "no run sets a retry budget",
		CompareRow: 13, FaultSensitive: true, PerRun: func(r *RunFact) (int64, int64) {
			return one(is(r.RetryBudgetOverrun)), one(r.RetryBudgetOverrun != nil)
		}},
	{Name: "deadline_overrun", Label: "deadline overrun", Better: Lower, Defect: true, Group: GroupBudgets, Reported: true,
		Empty:      "no run sets a deadline",
		CompareRow: 14, FaultSensitive: true, PerRun: func(r *RunFact) (int64, int64) {
			return one(is(r.DeadlineOverrun)), one(r.DeadlineOverrun != nil)
		}},
	// Stages are not in a run's facts, so compare has no per-run count.
	{Name: "stage_budget_overrun", Label: "stage budget overrun", Of: "stages with a budget", Better: Lower, Defect: true,
		Group: GroupBudgets, Reported: true},
	{Name: "expectation_conformance", Label: "expectation conformance", Of: "fault-injected runs", Better: Higher,
		Group: GroupBudgets, Reported: true,
		CompareRow: 12, PerRun: func(r *RunFact) (int64, int64) { return one(is(r.ExpectationMet)), one(r.ExpectationMet != nil) }},

	// Rates that explain others; the report places each by hand.
	{Name: "evidence_satisfaction_given_plan", Label: "evidence satisfied given a valid plan", Better: Higher, Group: GroupContext,
		Reported: true, Empty: "no run with a valid plan"},
	{Name: "claimed_completed", Label: "claimed completed", Of: "runs", Group: GroupContext, Reported: true,
		CompareRow: 6, FaultSensitive: true, PerRun: runsWhere(claimedCompleted)},
	{Name: "missing_terminal", Label: "no terminal event", Of: "runs", Better: Lower, Group: GroupContext,
		Reported: true},

	// Compared only: the report shows evidence as mean grades per path
	// (Suite.EvidenceGrade); compare tests the share at secondary grade or
	// better, counted per run from the evidence table.
	{Name: "direct_evidence_grade", Label: "direct-path evidence at secondary grade or better", Of: "confirmed evidence",
		Better: Higher, Group: GroupEvidence,
		CompareRow: 20, FaultSensitive: true, PerRun: func(r *RunFact) (int64, int64) { return r.DirectEvidenceOK, r.DirectEvidence }},
	{Name: "degraded_evidence_grade", Label: "degraded-path evidence at secondary grade or better", Of: "confirmed evidence",
		Better: Higher, Group: GroupEvidence,
		CompareRow: 19, FaultSensitive: true, PerRun: func(r *RunFact) (int64, int64) { return r.DegradedEvidenceOK, r.DegradedEvidence }},
}

// InvalidRetryReasons are the reason names of invalid_retry.by_reason.
var InvalidRetryReasons = slices.Clone(mustRate("invalid_retry").Reasons)

func is(b *bool) bool { return b != nil && *b }

func one(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// runsWhere is the per-run count of a rate over all runs.
func runsWhere(f func(r *RunFact) bool) func(r *RunFact) (int64, int64) {
	return func(r *RunFact) (int64, int64) { return one(f(r)), 1 }
}

func claimedCompleted(r *RunFact) bool { return r.Claimed != nil && *r.Claimed == "completed" }

// LookupRate returns the registered rate called name.
func LookupRate(name string) (RateDef, bool) {
	i, ok := rateIndex[name]
	if !ok {
		return RateDef{}, false
	}
	return registry[i], true
}

// rateIndex maps a name to its entry (the last one of a repeated name,
// which TestRegistryWellFormed refuses).
var rateIndex = func() map[string]int {
	m := make(map[string]int, len(registry))
	for i, d := range registry {
		m[d.Name] = i
	}
	return m
}()

func mustRate(name string) RateDef {
	d, ok := LookupRate(name)
	if !ok {
		panic("metrics: no registered rate " + name)
	}
	return d
}

// ReportedRates lists the rates of the report in the order of the fields
// of Metrics (the JSON's).
func ReportedRates() []RateDef { return slices.Clone(reported) }

var reported = func() []RateDef {
	var out []RateDef
	for _, d := range registry {
		if d.Reported {
			out = append(out, d)
		}
	}
	// A rate without a field goes last (TestRegistryMatchesMetrics names it).
	pos := func(d RateDef) int {
		if i, ok := metricsField[d.Name]; ok {
			return i
		}
		return len(metricsField)
	}
	slices.SortStableFunc(out, func(a, b RateDef) int { return pos(a) - pos(b) })
	return out
}()

// RatesIn lists the rates of one group, in registry order.
func RatesIn(g Group) []RateDef {
	var out []RateDef
	for _, d := range registry {
		if d.Group == g {
			out = append(out, d)
		}
	}
	return out
}

// ComparedRates lists the rates compare tests, in the order of its rows.
func ComparedRates() []RateDef {
	var out []RateDef
	for _, d := range registry {
		if d.CompareRow > 0 {
			out = append(out, d)
		}
	}
	slices.SortFunc(out, func(a, b RateDef) int { return a.CompareRow - b.CompareRow })
	return out
}

// RateNames lists the JSON names of the reported rates in report order.
func RateNames() []string {
	var out []string
	for _, d := range ReportedRates() {
		out = append(out, d.Name)
	}
	return out
}
