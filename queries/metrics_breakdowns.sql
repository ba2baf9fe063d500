-- Per suite breakdowns: recovery outcomes, evidence grade, latency.

-- name: metrics.recovery
-- Every chain is counted, first_try chains under category 'none'.
SELECT suite, category, tool, count(*) AS chains,
       count(*) FILTER (WHERE outcome = 'first_try') AS first_try,
       count(*) FILTER (WHERE outcome = 'after_retry') AS after_retry,
       count(*) FILTER (WHERE outcome = 'after_switch') AS after_switch,
       count(*) FILTER (WHERE outcome = 'degraded') AS degraded,
       count(*) FILTER (WHERE outcome = 'failed') AS failed
FROM chain_facts
GROUP BY suite, category, tool
ORDER BY suite, category = 'none', category, tool;

-- name: metrics.evidence_grade
-- Confirmed evidence only; path is degraded when the evidence says so or its
-- origin call used a fallback source. Summed from the per-run counts of
-- facts.runs (grade_*), not from the events: the mean is the sum of grade
-- scores over the count, as avg would compute it.
WITH by_path AS (
    SELECT suite, 'degraded' AS path, grade_degraded_n AS n, grade_degraded_sum AS score FROM run_facts
    UNION ALL
    SELECT suite, 'direct', grade_direct_n, grade_direct_sum FROM run_facts
)
SELECT suite, path, sum(n)::BIGINT AS count, sum(score)::DOUBLE / sum(n)::DOUBLE AS mean_grade
FROM by_path
GROUP BY suite, path
HAVING sum(n) > 0
ORDER BY suite, path;

-- name: metrics.latency
-- The latency percentiles of facts.latency, in report order.
SELECT suite, scope, name, n, queue_q, queue_max, exec_q, exec_max, wall_q, wall_max, queue_share
FROM latency_facts
ORDER BY suite, CASE scope WHEN 'stage' THEN 0 WHEN 'tool' THEN 1 ELSE 2 END,
         CASE name WHEN 'planning' THEN 0 WHEN 'evidence' THEN 1 WHEN 'generation' THEN 2
                   WHEN 'review' THEN 3 WHEN 'delivery' THEN 4 ELSE 5 END, name;

-- name: metrics.rejected
SELECT reason, count(*) AS n FROM rejected_lines GROUP BY reason ORDER BY n DESC, reason;

-- name: metrics.unknown_args
-- Tool calls whose arguments the trace does not record (no args_digest),
-- per suite and tool. Unknown arguments are never equal to any: such calls
-- are neither duplicates nor inferred re-sends, and are counted here so the
-- reader knows how many calls those rates could not judge.
SELECT r.suite, c.tool, count(*) AS calls
FROM call_facts c JOIN run_facts r USING (run_id)
WHERE c.args_digest IS NULL
GROUP BY r.suite, c.tool
ORDER BY r.suite, c.tool;
