-- Rates per suite and per (suite, scenario). Each query returns columns
-- named <rate>__num and <rate>__den (and <rate>__unknown, <rate>__<reason>
-- where the rate defines them); every <rate> is an entry of the registry,
-- metrics/registry.go, which the tests hold these columns to.
-- scenario is NULL on suite rows.
-- Denominators keep the original runs (the seeds' rule): a run that failed
-- early is still in every all-runs denominator.

-- name: metrics.run_rates
SELECT suite, CASE WHEN grouping(scenario) = 0 THEN scenario END AS scenario,
       count(*) AS runs,
       -- The funnel: the four gates and success, over all runs.
       count(*) FILTER (WHERE plan_valid)                AS plan_validity__num,
       count(*)                                          AS plan_validity__den,
       count(*) FILTER (WHERE plan_valid IS NULL)        AS plan_validity__unknown,
       count(*) FILTER (WHERE evidence_satisfied)        AS evidence_satisfaction__num,
       count(*)                                          AS evidence_satisfaction__den,
       count(*) FILTER (WHERE evidence_satisfied IS NULL) AS evidence_satisfaction__unknown,
       count(*) FILTER (WHERE answer_deliverable)        AS answer_deliverable__num,
       count(*)                                          AS answer_deliverable__den,
       count(*) FILTER (WHERE terminal_committed)        AS terminal_committed__num,
       count(*)                                          AS terminal_committed__den,
       count(*) FILTER (WHERE success)                   AS success__num,
       count(*)                                          AS success__den,
       count(*) FILTER (WHERE success IS NULL)           AS success__unknown,
       count(*) FILTER (WHERE plan_valid AND evidence_satisfied) AS evidence_satisfaction_given_plan__num,
       count(*) FILTER (WHERE plan_valid)                        AS evidence_satisfaction_given_plan__den,
       -- Claims, over the runs that claimed completion.
       count(*) FILTER (WHERE claimed = 'completed')     AS claimed_completed__num,
       count(*)                                          AS claimed_completed__den,
       count(*) FILTER (WHERE masked_success)            AS masked_success__num,
       count(*) FILTER (WHERE claimed = 'completed')     AS masked_success__den,
       count(*) FILTER (WHERE undisclosed_degradation)   AS undisclosed_degradation__num,
       count(*) FILTER (WHERE claimed = 'completed')     AS undisclosed_degradation__den,
       -- Run-level violations, budgets and expectations.
       count(*) FILTER (WHERE zero_call_violation)       AS zero_call_violation__num,
       count(*) FILTER (WHERE plan_valid = false)        AS zero_call_violation__den,
       count(*) FILTER (WHERE seal_violation)            AS seal_violation__num,
       count(*)                                          AS seal_violation__den,
       count(*) FILTER (WHERE expectation_met)           AS expectation_conformance__num,
       count(*) FILTER (WHERE expectation_met IS NOT NULL) AS expectation_conformance__den,
       count(*) FILTER (WHERE retry_budget_overrun)      AS retry_budget_overrun__num,
       count(*) FILTER (WHERE retry_budget_overrun IS NOT NULL) AS retry_budget_overrun__den,
       count(*) FILTER (WHERE deadline_overrun)          AS deadline_overrun__num,
       count(*) FILTER (WHERE deadline_overrun IS NOT NULL) AS deadline_overrun__den,
       count(*) FILTER (WHERE n_terminals = 0)           AS missing_terminal__num,
       count(*)                                          AS missing_terminal__den,
       -- retry_amplification = tool calls / logical actions (an action is
       -- per run, so the per-run counts add up).
       sum(tool_calls) AS tool_calls, sum(actions) AS actions
FROM run_facts
GROUP BY GROUPING SETS ((suite), (suite, scenario))
ORDER BY suite, scenario NULLS FIRST;

-- name: metrics.call_rates
-- Call-level rates pool the calls (re-sends) of all runs.
SELECT r.suite, CASE WHEN grouping(r.scenario) = 0 THEN r.scenario END AS scenario,
       count(*) FILTER (WHERE c.invalid_resend)           AS invalid_retry__num,
       count(*) FILTER (WHERE c.resend)                   AS invalid_retry__den,
       count(*) FILTER (WHERE c.r_not_retryable)          AS invalid_retry__not_retryable,
       count(*) FILTER (WHERE c.r_category)               AS invalid_retry__category,
       count(*) FILTER (WHERE c.r_write_without_key)      AS invalid_retry__write_without_key,
       count(*) FILTER (WHERE c.r_unknown_outcome_resend) AS invalid_retry__unknown_outcome_resend,
       count(*) FILTER (WHERE c.r_before_retry_after)     AS invalid_retry__before_retry_after,
       count(*) FILTER (WHERE c.r_unknown_outcome_resend) AS unknown_outcome_resend__num,
       count(*) FILTER (WHERE c.resend)                   AS unknown_outcome_resend__den,
       count(*) FILTER (WHERE c.duplicate)                AS duplicate_call__num,
       count(*)                                           AS duplicate_call__den,
       count(*) FILTER (WHERE c.breaker_violation)        AS breaker_violation__num,
       count(*) FILTER (WHERE c.circuit_open)             AS breaker_violation__den
FROM call_facts c JOIN run_facts r USING (run_id)
GROUP BY GROUPING SETS ((r.suite), (r.suite, r.scenario))
ORDER BY 1, 2 NULLS FIRST;

-- name: metrics.stage_rates
-- A stage's wall time is ended − enqueued (or − started without enqueued_at),
-- in microseconds so that a budget missed by under a millisecond counts.
SELECT r.suite, CASE WHEN grouping(r.scenario) = 0 THEN r.scenario END AS scenario,
       count(*) FILTER (
           WHERE epoch_us(s.ended_at) - epoch_us(coalesce(s.enqueued_at, s.started_at)) > s.budget_ms * 1000
       )        AS stage_budget_overrun__num,
       count(*) AS stage_budget_overrun__den
FROM events s JOIN run_facts r USING (run_id)
WHERE s.type = 'stage' AND s.budget_ms IS NOT NULL
GROUP BY GROUPING SETS ((r.suite), (r.suite, r.scenario))
ORDER BY 1, 2 NULLS FIRST;
