// Package metrics computes the evaluator's judgements (section 4 of the trace
// contract) by running the SQL in package queries over the ingested tables,
// and returns them as the typed report of section 5. Go here orchestrates and
// shapes; the numbers come from DuckDB.
package metrics

// ReportVersion is the version of the JSON report structure.
const ReportVersion = 1

// Report is the whole evaluation: rejected input and one entry per suite.
type Report struct {
	ReportVersion int      `json:"report_version"`
	Rejected      Rejected `json:"rejected"`
	Suites        []Suite  `json:"suites"`
}

// Rejected counts the input lines that did not become events.
type Rejected struct {
	Lines    int64            `json:"lines"`
	ByReason map[string]int64 `json:"by_reason"`
}

// Suite is the evaluation of one run set.
type Suite struct {
	Suite              string         `json:"suite"`
	Runs               int64          `json:"runs"`
	Metrics            Metrics        `json:"metrics"`
	RetryAmplification *float64       `json:"retry_amplification"`
	Recovery           []RecoveryRow  `json:"recovery"`
	EvidenceGrade      []GradeRow     `json:"evidence_grade"`
	Latency            []LatencyRow   `json:"latency"`
	Scenarios          []ScenarioPart `json:"scenarios"`
	// UnknownArgs counts, per tool, the calls whose arguments the trace
	// does not record: no duplicate or inferred re-send can involve them.
	UnknownArgs map[string]int64 `json:"unknown_args_per_tool,omitempty"`
}

// ScenarioPart is the evaluation of the runs of one scenario within a suite.
type ScenarioPart struct {
	Scenario           string   `json:"scenario"`
	Runs               int64    `json:"runs"`
	Metrics            Metrics  `json:"metrics"`
	RetryAmplification *float64 `json:"retry_amplification"`
}

// Rate is a count over a denominator; Rate is nil when Den is 0.
type Rate struct {
	Num      int64            `json:"num"`
	Den      int64            `json:"den"`
	Rate     *float64         `json:"rate"`
	Unknown  *int64           `json:"unknown,omitempty"`   // plan_validity, evidence_satisfaction, success: runs that could not be judged
	ByReason map[string]int64 `json:"by_reason,omitempty"` // invalid_retry, unverified_completion
}

// Metrics holds every rate of the contract, in its order, plus two that the
// comparison gates use (unknown-outcome write re-sends, claimed completed).
// Each field is a reported rate of the registry (registry.go), found by its
// JSON name; the field order is the order of the JSON, CSV and Markdown.
// UnverifiedCompletion counts completion claims whose success is unknown;
// its by_reason counts, per gate, the claims that gate left unknown.
type Metrics struct {
	PlanValidity                  Rate `json:"plan_validity"`
	EvidenceSatisfaction          Rate `json:"evidence_satisfaction"`
	EvidenceSatisfactionGivenPlan Rate `json:"evidence_satisfaction_given_plan"`
	AnswerDeliverable             Rate `json:"answer_deliverable"`
	TerminalCommitted             Rate `json:"terminal_committed"`
	Success                       Rate `json:"success"`
	MaskedSuccess                 Rate `json:"masked_success"`
	UnverifiedCompletion          Rate `json:"unverified_completion"`
	UndisclosedDegradation        Rate `json:"undisclosed_degradation"`
	InvalidRetry                  Rate `json:"invalid_retry"`
	DuplicateCall                 Rate `json:"duplicate_call"`
	BreakerViolation              Rate `json:"breaker_violation"`
	ZeroCallViolation             Rate `json:"zero_call_violation"`
	SealViolation                 Rate `json:"seal_violation"`
	ExpectationConformance        Rate `json:"expectation_conformance"`
	RetryBudgetOverrun            Rate `json:"retry_budget_overrun"`
	DeadlineOverrun               Rate `json:"deadline_overrun"`
	StageBudgetOverrun            Rate `json:"stage_budget_overrun"`
	UnknownOutcomeResend          Rate `json:"unknown_outcome_resend"`
	ClaimedCompleted              Rate `json:"claimed_completed"`
	// MissingTerminal counts runs without any terminal event: their answer
	// cannot be deliverable nor their terminal committed.
	MissingTerminal Rate `json:"missing_terminal"`
}

// RecoveryRow counts recovery chains of one error category and root tool.
type RecoveryRow struct {
	Category    string `json:"category"`
	Tool        string `json:"tool"`
	Chains      int64  `json:"chains"`
	FirstTry    int64  `json:"first_try"`
	AfterRetry  int64  `json:"after_retry"`
	AfterSwitch int64  `json:"after_switch"`
	Degraded    int64  `json:"degraded"`
	Failed      int64  `json:"failed"`
}

// GradeRow is the confirmed evidence of one path.
type GradeRow struct {
	Path      string   `json:"path"`
	Count     int64    `json:"count"`
	MeanGrade *float64 `json:"mean_grade"`
}

// LatencyRow is the latency of one stage, tool, or the run end to end.
type LatencyRow struct {
	Scope      string    `json:"scope"` // stage, tool or run
	Name       string    `json:"name"`
	N          int64     `json:"n"`
	QueueMs    Quantiles `json:"queue_ms"`
	ExecMs     Quantiles `json:"exec_ms"`
	WallMs     Quantiles `json:"wall_ms"`
	QueueShare *float64  `json:"queue_share"`
}

// Quantiles summarise one latency distribution in milliseconds.
type Quantiles struct {
	P50 *float64 `json:"p50"`
	P90 *float64 `json:"p90"`
	P95 *float64 `json:"p95"`
	P99 *float64 `json:"p99"`
	Max *float64 `json:"max"`
}

// NamedRate is a rate with its JSON name and its definition.
type NamedRate struct {
	Name string
	Rate Rate
	Def  RateDef
}
