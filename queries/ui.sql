-- Queries of the interactive dashboard (package ui through metrics). Each
-- reads the fact tables of the metrics session; none loads all events.

-- name: ui.runs_page
-- One page of the runs table. $text filter (substring of run id, suite,
-- scenario or agent; '' for all), $quick filter ('' all, 'masked',
-- 'failed', 'seal', 'undisclosed', ...), $limit, $offset, $scenario ('' all),
-- $error_class and $error_outcome (a recovery chain of that category and
-- outcome; '' for either: any), $gate_false: the
-- gate that is false ('' all, 'plan', 'evidence', 'deliverable',
-- 'committed'), $suite ('' all), $slow_scope, $slow_name, $slow_clock,
-- $slow_over_ms: a slow span: scope ('' for no such filter), name, clock
-- ('queue', 'exec' or 'wall') and the ms it must exceed (the compare view
-- drills from a latency row to the runs with a span above the baseline's
-- quantile). The order placeholder is the ORDER BY list, from the fixed
-- whitelist metrics.RunSortColumns.
-- total is the number of runs matching the filter, on every row.
WITH f AS (
    SELECT run_id, suite, scenario, coalesce(agent.name, '') AS agent,
           coalesce(claimed, '') AS claimed,
           CASE WHEN success THEN 'success' WHEN success = false THEN 'failed' ELSE 'unknown' END AS verdict,
           coalesce(masked_success, false) AS masked,
           tool_calls, resends, end_to_end_ms
    FROM run_facts
    WHERE ($text = ''
           OR contains(lower(run_id || ' ' || suite || ' ' || scenario || ' ' || coalesce(agent.name, '')),
                       lower($text)))
      AND ($quick = ''
           OR ($quick = 'masked' AND masked_success)
           OR ($quick = 'failed' AND success IS NOT TRUE)
           OR ($quick = 'seal' AND seal_violation)
           OR ($quick = 'undisclosed' AND undisclosed_degradation)
           OR ($quick = 'zero_call' AND zero_call_violation)
           OR ($quick = 'invalid_retry' AND invalid_resends > 0)
           OR ($quick = 'unknown_outcome' AND unknown_outcome_resends > 0)
           OR ($quick = 'breaker' AND run_id IN (SELECT run_id FROM call_facts WHERE breaker_violation))
           OR ($quick = 'duplicate' AND run_id IN (SELECT run_id FROM call_facts WHERE duplicate)))
      AND ($scenario = '' OR scenario = $scenario)
      AND (($error_class = '' AND $error_outcome = '') OR run_id IN (
           SELECT run_id FROM chain_facts
           WHERE ($error_class = '' OR category = $error_class) AND ($error_outcome = '' OR outcome = $error_outcome)))
      AND ($gate_false = ''
           OR ($gate_false = 'plan' AND plan_valid = false)
           OR ($gate_false = 'evidence' AND evidence_satisfied = false)
           OR ($gate_false = 'deliverable' AND NOT answer_deliverable)
           OR ($gate_false = 'committed' AND NOT terminal_committed))
      AND ($suite = '' OR suite = $suite)
      AND ($slow_scope = '' OR run_id IN (
               SELECT run_id FROM span_facts
               WHERE scope = $slow_scope AND name = $slow_name
                 AND CASE $slow_clock WHEN 'queue' THEN queue_ms WHEN 'exec' THEN exec_ms ELSE wall_ms END
                     > $slow_over_ms))
)
SELECT *, count(*) OVER () AS total FROM f
ORDER BY {{order}}
LIMIT $limit OFFSET $offset;

-- name: ui.run_gates
-- The judgement of one run ($run_id): the four gates with what each read.
SELECT run_id, suite, scenario, coalesce(agent.name, '') AS agent, coalesce(claimed, '') AS claimed,
       plan_valid, evidence_needed, claims_confirmed, evidence_satisfied,
       coalesce(task.min_grade, 'secondary') AS min_grade,
       answer_deliverable, n_terminals, visible_chars, coalesce(t_rejected, 0) AS chunks_rejected,
       coalesce(generation_outcome, '') AS generation_outcome,
       terminal_committed, seal_violation, success, coalesce(masked_success, false) AS masked,
       coalesce(undisclosed_degradation, false) AS undisclosed,
       tool_calls, resends, invalid_resends, end_to_end_ms, deadline_ms
FROM run_facts WHERE run_id = $run_id;

-- name: ui.run_timeline
-- Stages, tool calls and model calls of one run ($run_id), as offsets in ms from
-- the run's earliest instant; queue is enqueued → started, exec started →
-- ended. Tool calls carry their re-send and error judgements.
WITH ev AS (
    SELECT * FROM events WHERE run_id = $run_id AND type IN ('stage', 'tool_call', 'model_call')
), t0 AS (
    SELECT min(coalesce(enqueued_at, started_at, ts)) AS t0 FROM ev
)
SELECT ev.type AS kind,
       coalesce(ev.stage, ev.tool, ev.role, '') AS name,
       coalesce(ev.call_id, ev.stage_id, '') AS id,
       coalesce(ev.attempt, 1) AS attempt,
       coalesce(ev.status, ev.outcome, '') AS status,
       coalesce(ev.error.category, ev.failure.category, '') AS category,
       coalesce(ev.error.retryable, ev.failure.retryable) AS retryable,
       coalesce(ev.recovery, '') AS recovery,
       coalesce(ev.recovery_of, '') AS recovery_of,
       coalesce(c.invalid_resend, false) AS invalid_resend,
       coalesce(c.breaker_violation, false) AS breaker_violation,
       (epoch_us(coalesce(ev.enqueued_at, ev.started_at, ev.ts)) - epoch_us(t0.t0)) / 1000.0 AS start_ms,
       coalesce((epoch_us(ev.started_at) - epoch_us(coalesce(ev.enqueued_at, ev.started_at))) / 1000.0, 0) AS queue_ms,
       coalesce((epoch_us(ev.ended_at) - epoch_us(ev.started_at)) / 1000.0, 0) AS exec_ms
FROM ev CROSS JOIN t0
LEFT JOIN call_facts c ON ev.type = 'tool_call' AND c.run_id = ev.run_id AND c.call_id = ev.call_id
ORDER BY start_ms, ev.seq NULLS LAST, id;

-- name: ui.run_evidence
-- The evidence of one run ($run_id) with grade and path.
SELECT coalesce(claim, '') AS claim, coalesce(status, '') AS status,
       coalesce(grade, '') AS grade, coalesce(path, '') AS path, coalesce(call_id, '') AS call_id
FROM events WHERE run_id = $run_id AND type = 'evidence'
ORDER BY ts, seq NULLS LAST;

-- name: ui.error_matrix
-- Recovery chains by error category × outcome, per suite. chain_facts
-- carries its run's suite (NULL only for a run without run facts, which
-- the join with run_facts this replaced left out too).
SELECT suite, category, outcome, count(*) AS chains
FROM chain_facts
WHERE suite IS NOT NULL
GROUP BY ALL ORDER BY suite, category, outcome;

-- name: ui.scenarios
-- The scenarios of the runs, for the runs view's quick filter.
SELECT DISTINCT scenario FROM run_facts WHERE scenario IS NOT NULL ORDER BY scenario;

-- name: ui.error_classes
-- The error categories of the recovery chains, for the runs view's quick
-- filter.
SELECT DISTINCT category FROM chain_facts WHERE category IS NOT NULL ORDER BY category;

-- name: ui.latency_histogram
-- Wall time (ms) of every stage and tool call per suite in ten buckets
-- spaced logarithmically between the smallest and largest wall time of that
-- stage or tool over all suites, so both suites share one scale. Spans
-- under 1 ms count as 1 ms. lo_ms and hi_ms are the scale's ends.
WITH ms AS (
    SELECT suite, scope, name, greatest(wall_ms, 1) AS wall_ms
    FROM span_facts WHERE scope <> 'run' AND wall_ms IS NOT NULL AND name IS NOT NULL
), scale AS (
    SELECT scope, name, ln(min(wall_ms)) AS lo, ln(max(wall_ms)) AS hi FROM ms GROUP BY scope, name
)
SELECT ms.suite, ms.scope, ms.name,
       least(9, CASE WHEN scale.hi > scale.lo
                     THEN floor((ln(ms.wall_ms) - scale.lo) / (scale.hi - scale.lo) * 10)::INTEGER
                     ELSE 0 END) AS bucket,
       count(*) AS n, exp(any_value(scale.lo)) AS lo_ms, exp(any_value(scale.hi)) AS hi_ms
FROM ms JOIN scale USING (scope, name)
GROUP BY ALL
ORDER BY ms.suite, ms.scope, ms.name, bucket;

-- name: ui.schema
-- The tables and columns the SQL console can read (the ingested tables of
-- the main schema; the metrics session's temporary fact tables are not
-- visible to the console's connection).
SELECT table_name, column_name, data_type
FROM duckdb_columns()
WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal
ORDER BY table_name, column_index;
