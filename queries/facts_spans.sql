-- Per span latency facts. Requires call_facts and run_facts.

-- name: facts.spans
-- One row per stage span and tool call of the scoped runs, and one
-- end-to-end row per run with a claimed terminal: queue = started − enqueued
-- (0 without enqueued_at), exec = ended − started, wall = ended − enqueued
-- (or − started); the run scope has the end-to-end time (claimed terminal ts
-- − started_at) as its wall time only. Milliseconds are computed from
-- microseconds (timestamps carry fractions of a millisecond; epoch_ms would
-- truncate each instant). A table, built once per session: the latency
-- report, the dashboard's histograms and slow-span filter, and the
-- comparison's samples (twice, once per side) all read it, and as a view
-- each of them repeated the union and the join with run_facts.
CREATE OR REPLACE TEMP TABLE span_facts AS
WITH spans AS (
    SELECT run_id, 'stage' AS scope, stage AS name, enqueued_at, started_at, ended_at
    FROM scoped_events WHERE type = 'stage'
    UNION ALL
    SELECT run_id, 'tool', tool, enqueued_at, started_at, ended_at FROM call_facts
)
SELECT s.run_id, r.suite, s.scope, s.name,
       ((epoch_us(s.started_at) - epoch_us(coalesce(s.enqueued_at, s.started_at))) / 1000)::DOUBLE AS queue_ms,
       ((epoch_us(s.ended_at) - epoch_us(s.started_at)) / 1000)::DOUBLE AS exec_ms,
       ((epoch_us(s.ended_at) - epoch_us(coalesce(s.enqueued_at, s.started_at))) / 1000)::DOUBLE AS wall_ms
FROM spans s JOIN run_facts r USING (run_id)
UNION ALL
SELECT run_id, suite, 'run', 'end_to_end', NULL, NULL, end_to_end_ms::DOUBLE
FROM run_facts WHERE end_to_end_ms IS NOT NULL;

-- name: facts.latency
-- Percentiles by linear interpolation (quantile_cont) per suite, stage or
-- tool, and the run scope; queue_share = Σqueue / Σwall. A table built once
-- per session with span_facts: gathering the ~2M values of a million-event
-- night into their groups is the cost (about 60 ms), whichever aggregate
-- does it, and the report and the dashboard's latency view both read it
-- (docs/benchmarks-ui.md).
CREATE OR REPLACE TEMP TABLE latency_facts AS
SELECT suite, scope, name, count(*) AS n,
       quantile_cont(queue_ms, [0.5, 0.9, 0.95, 0.99]) AS queue_q, max(queue_ms) AS queue_max,
       quantile_cont(exec_ms, [0.5, 0.9, 0.95, 0.99]) AS exec_q, max(exec_ms) AS exec_max,
       quantile_cont(wall_ms, [0.5, 0.9, 0.95, 0.99]) AS wall_q, max(wall_ms) AS wall_max,
       CASE WHEN sum(wall_ms) > 0 THEN sum(queue_ms) / sum(wall_ms) END AS queue_share
FROM span_facts
GROUP BY suite, scope, name;
