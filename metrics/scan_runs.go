package metrics

import (
	"database/sql"
	"fmt"
)

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
// (optional), NULL counts 0, NULL judgements nil.
func scanRuns(rows *sql.Rows, ev *Evidence) error {
	var runID, suite, scenario, agentName, agentVersion, faultClass, claimed sql.NullString
	var started sql.NullTime
	var bools [12]sql.NullBool
	var counts [11]sql.NullInt64
	var e2e sql.NullFloat64
	dest := []any{&runID, &suite, &scenario, &started, &agentName, &agentVersion, &faultClass,
		&bools[0], &bools[1], &bools[2], &bools[3], &bools[4], &claimed,
		&bools[5], &bools[6], &bools[7], &bools[8], &bools[9], &bools[10], &bools[11]}
	for i := range counts {
		dest = append(dest, &counts[i])
	}
	dest = append(dest, &e2e)
	str := func(v sql.NullString) *string {
		if !v.Valid {
			return nil
		}
		s := v.String
		return &s
	}
	b := func(i int) *bool {
		if !bools[i].Valid {
			return nil
		}
		v := bools[i].Bool
		return &v
	}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return fmt.Errorf("metrics: scan runs: %w", err)
		}
		f := RunFact{RunID: runID.String, Suite: suite.String, Scenario: scenario.String,
			AgentName: str(agentName), AgentVersion: str(agentVersion), FaultClass: str(faultClass),
			PlanValid: b(0), EvidenceSatisfied: b(1), AnswerDeliverable: b(2), TerminalCommitted: b(3), Success: b(4),
			Claimed: str(claimed), MaskedSuccess: b(5), UndisclosedDegradation: b(6), ZeroCallViolation: b(7),
			SealViolation: b(8), ExpectationMet: b(9), RetryBudgetOverrun: b(10), DeadlineOverrun: b(11),
			ToolCalls: counts[0].Int64, Resends: counts[1].Int64, InvalidResends: counts[2].Int64,
			UnknownOutcomeResends: counts[3].Int64, Duplicates: counts[4].Int64, CircuitOpenCalls: counts[5].Int64,
			BreakerViolations: counts[6].Int64, DegradedEvidence: counts[7].Int64, DegradedEvidenceOK: counts[8].Int64,
			DirectEvidence: counts[9].Int64, DirectEvidenceOK: counts[10].Int64}
		if started.Valid {
			t := started.Time
			f.StartedAt = &t
		}
		if e2e.Valid {
			v := e2e.Float64
			f.EndToEndMs = &v
		}
		ev.Runs = append(ev.Runs, f)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("metrics: scan runs: %w", err)
	}
	return nil
}
