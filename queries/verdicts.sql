-- Per-run and per-call verdicts, as the OTLP export writes them back onto
-- the run's spans (gen_ai.evaluation.result events). Requires the fact
-- tables of a metrics session.

-- name: verdicts.runs
-- Every run's gates, its claim and its run-level defects (NULL: unknown or
-- not applicable).
SELECT run_id, plan_valid, evidence_satisfied, answer_deliverable, terminal_committed, success,
       claimed, masked_success, unverified_completion, undisclosed_degradation,
       zero_call_violation, seal_violation, retry_budget_overrun, deadline_overrun, expectation_met
FROM run_facts
ORDER BY run_id;

-- name: verdicts.calls
-- The tool calls with a defect: an invalid re-send (with each reason that
-- made it invalid), a duplicate, a call through an open breaker.
SELECT run_id, call_id, invalid_resend, r_not_retryable, r_category, r_write_without_key,
       r_unknown_outcome_resend, r_before_retry_after, duplicate, breaker_violation
FROM call_facts
WHERE invalid_resend OR duplicate OR breaker_violation
ORDER BY run_id, call_id;
