-- Per suite breakdowns: recovery outcomes, evidence grade, latency.

-- name: metrics.recovery
-- Every chain is counted, first_try chains under category 'none'.
SELECT r.suite, c.category, c.tool, count(*) AS chains,
       count(*) FILTER (WHERE outcome = 'first_try') AS first_try,
       count(*) FILTER (WHERE outcome = 'after_retry') AS after_retry,
       count(*) FILTER (WHERE outcome = 'after_switch') AS after_switch,
       count(*) FILTER (WHERE outcome = 'degraded') AS degraded,
       count(*) FILTER (WHERE outcome = 'failed') AS failed
FROM chain_facts c JOIN run_facts r USING (run_id)
GROUP BY r.suite, c.category, c.tool
ORDER BY r.suite, c.category = 'none', c.category, c.tool;

-- name: metrics.evidence_grade
-- Confirmed evidence only; path is degraded when the evidence says so or its
-- origin call used a fallback source.
SELECT r.suite,
       CASE WHEN e.path = 'degraded' OR coalesce(c.fallback, false) THEN 'degraded' ELSE 'direct' END AS path,
       count(*) AS count,
       avg(CASE e.grade WHEN 'primary' THEN 3 WHEN 'secondary' THEN 2 WHEN 'reprint' THEN 1 ELSE 0 END) AS mean_grade
FROM events e
JOIN run_facts r USING (run_id)
LEFT JOIN call_facts c ON c.run_id = e.run_id AND c.call_id = e.call_id
WHERE e.type = 'evidence' AND e.status = 'confirmed'
GROUP BY ALL
ORDER BY r.suite, path;

-- name: metrics.latency
-- Percentiles by linear interpolation (quantile_cont) over span_facts
-- (facts.spans); queue_share = Σqueue / Σwall.
WITH ms AS (SELECT * FROM span_facts)
SELECT suite, scope, name, count(*) AS n,
       quantile_cont(queue_ms, [0.5, 0.9, 0.95, 0.99]) AS queue_q, max(queue_ms) AS queue_max,
       quantile_cont(exec_ms, [0.5, 0.9, 0.95, 0.99]) AS exec_q, max(exec_ms) AS exec_max,
       quantile_cont(wall_ms, [0.5, 0.9, 0.95, 0.99]) AS wall_q, max(wall_ms) AS wall_max,
       CASE WHEN sum(wall_ms) > 0 THEN sum(queue_ms) / sum(wall_ms) END AS queue_share
FROM ms
GROUP BY suite, scope, name
ORDER BY suite, CASE scope WHEN 'stage' THEN 0 WHEN 'tool' THEN 1 ELSE 2 END,
         CASE name WHEN 'planning' THEN 0 WHEN 'evidence' THEN 1 WHEN 'generation' THEN 2
                   WHEN 'review' THEN 3 WHEN 'delivery' THEN 4 ELSE 5 END, name;

-- name: metrics.rejected
SELECT reason, count(*) AS n FROM rejected_lines GROUP BY reason ORDER BY n DESC, reason;
