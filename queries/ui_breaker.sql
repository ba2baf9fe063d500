-- The dashboard's breaker timeline. A tool "has a circuit" in a suite when
-- any of its calls there saw its breaker open or half-open; a call without
-- a circuit state saw it closed (the contract's default, which call_facts
-- fills in). Runs overlap in time and report different states at once
-- (each agent instance holds its own breaker), so a breaker's changes of
-- state are followed within each run (metrics/breaker.go), and the lane of
-- a suite and tool shows, over the suite's time span, when any run's calls
-- saw it open or half-open.

-- name: ui.breaker_calls
-- Every call of a tool in a run where some call of that tool saw the
-- breaker open or half-open, with its suite, in order per run and tool.
-- Only those runs' calls are read back, not every call.
WITH pairs AS (
    SELECT DISTINCT run_id, tool FROM call_facts WHERE circuit IN ('open', 'half_open')
)
SELECT r.suite, c.tool, c.run_id, c.call_id, epoch_us(c.started_at) / 1000.0 AS at_ms,
       c.circuit AS state, coalesce(c.status, '') AS status, coalesce(c.breaker_violation, false) AS violation
FROM call_facts c JOIN pairs USING (run_id, tool) JOIN run_facts r USING (run_id)
WHERE c.started_at IS NOT NULL
ORDER BY c.run_id, c.tool, c.started_at, c.call_id;

-- name: ui.breaker_spans
-- Each suite's time span, ms since the epoch: its first run's start to its
-- last event.
SELECT suite, epoch_us(min(started_at)) / 1000.0 AS t0,
       epoch_us(max(greatest(started_at, coalesce(last_ts, started_at)))) / 1000.0 AS t1
FROM run_facts WHERE started_at IS NOT NULL
GROUP BY suite ORDER BY suite;
