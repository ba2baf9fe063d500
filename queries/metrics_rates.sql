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
       -- Unverified completions, and per gate the ones it left unknown
       -- (a run may count under both).
       count(*) FILTER (WHERE unverified_completion)     AS unverified_completion__num,
       count(*) FILTER (WHERE claimed = 'completed')     AS unverified_completion__den,
       count(*) FILTER (WHERE unverified_completion AND plan_valid IS NULL) AS unverified_completion__plan_validity,
       count(*) FILTER (WHERE unverified_completion AND evidence_satisfied IS NULL) AS unverified_completion__evidence_satisfaction,
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
-- Summed from the per-run call counts of facts.runs rather than a join of
-- call_facts with run_facts: a suite or scenario without tool calls gets a
-- row of zeros, which reads as the 0/0 it was initialised to.
SELECT suite, CASE WHEN grouping(scenario) = 0 THEN scenario END AS scenario,
       sum(invalid_resends)::BIGINT AS invalid_retry__num,
       sum(resends)::BIGINT AS invalid_retry__den,
       sum(not_retryable_resends)::BIGINT AS invalid_retry__not_retryable,
       sum(category_resends)::BIGINT AS invalid_retry__category,
       sum(write_without_key_resends)::BIGINT AS invalid_retry__write_without_key,
       sum(unknown_outcome_resends)::BIGINT AS invalid_retry__unknown_outcome_resend,
       sum(before_retry_after_resends)::BIGINT AS invalid_retry__before_retry_after,
       sum(duplicates)::BIGINT AS duplicate_call__num, sum(tool_calls)::BIGINT AS duplicate_call__den,
       sum(breaker_violations)::BIGINT AS breaker_violation__num,
       sum(circuit_open_calls)::BIGINT AS breaker_violation__den,
       sum(unknown_outcome_resends)::BIGINT AS unknown_outcome_resend__num,
       sum(resends)::BIGINT AS unknown_outcome_resend__den
FROM run_facts
GROUP BY GROUPING SETS ((suite), (suite, scenario))
ORDER BY 1, 2 NULLS FIRST;

-- name: metrics.stage_rates
-- Summed from the per-run stage budget counts of facts.runs (budget_stages,
-- budget_overruns); a stage's wall time is ended − enqueued (or − started
-- without enqueued_at), in microseconds.
SELECT suite, CASE WHEN grouping(scenario) = 0 THEN scenario END AS scenario,
       sum(budget_overruns)::BIGINT AS stage_budget_overrun__num,
       sum(budget_stages)::BIGINT AS stage_budget_overrun__den
FROM run_facts
GROUP BY GROUPING SETS ((suite), (suite, scenario))
ORDER BY 1, 2 NULLS FIRST;
