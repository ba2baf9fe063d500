package metrics

import "database/sql"

// runColumns are the columns of baseline.runs, in order (a saved baseline
// holds the same); scanRuns reads them without the generic map per row.
var runColumns = []string{"run_id", "suite", "scenario", "started_at", "agent_name", "agent_version", "fault_class",
	"plan_valid", "evidence_satisfied", "answer_deliverable", "terminal_committed", "success", "claimed",
	"masked_success", "undisclosed_degradation", "zero_call_violation", "seal_violation", "expectation_met",
	"retry_budget_overrun", "deadline_overrun", "tool_calls", "resends", "invalid_resends", "unknown_outcome_resends",
	"duplicates", "circuit_open_calls", "breaker_violations", "degraded_evidence", "degraded_evidence_ok",
	"direct_evidence", "direct_evidence_ok", "end_to_end_ms"}

// scanRuns reads run facts into typed values directly, with the meaning
// runFact gives the generic values: NULL strings are "" (required) or nil
// (optional), NULL counts 0, NULL judgements nil. Repeated values (suite,
// scenario, agent, judgements) share one copy.
func scanRuns(rows *sql.Rows, ev *Evidence) error {
	in := newInterner()
	return eachRow(rows, "runs", len(runColumns), func(v []any) {
		ev.Runs = append(ev.Runs, RunFact{RunID: asString(v[0]), Suite: in.strOf(v[1]), Scenario: in.strOf(v[2]),
			StartedAt: timeOf(v[3]), AgentName: in.optStr(v[4]), AgentVersion: in.optStr(v[5]), FaultClass: in.optStr(v[6]),
			PlanValid: in.optBool(v[7]), EvidenceSatisfied: in.optBool(v[8]), AnswerDeliverable: in.optBool(v[9]),
			TerminalCommitted: in.optBool(v[10]), Success: in.optBool(v[11]), Claimed: in.optStr(v[12]),
			MaskedSuccess: in.optBool(v[13]), UndisclosedDegradation: in.optBool(v[14]), ZeroCallViolation: in.optBool(v[15]),
			SealViolation: in.optBool(v[16]), ExpectationMet: in.optBool(v[17]), RetryBudgetOverrun: in.optBool(v[18]),
			DeadlineOverrun: in.optBool(v[19]), ToolCalls: asInt(v[20]), Resends: asInt(v[21]),
			InvalidResends: asInt(v[22]), UnknownOutcomeResends: asInt(v[23]),
			Duplicates: asInt(v[24]), CircuitOpenCalls: asInt(v[25]), BreakerViolations: asInt(v[26]),
			DegradedEvidence: asInt(v[27]), DegradedEvidenceOK: asInt(v[28]), DirectEvidence: asInt(v[29]),
			DirectEvidenceOK: asInt(v[30]), EndToEndMs: in.float(v[31])})
	})
}
