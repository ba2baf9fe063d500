-- The dashboard's breaker timeline. A tool "has a circuit" in a suite when
-- any of its calls there reports a circuit state; a call without one saw
-- the breaker closed (the contract's default). The state of a tool's
-- breaker over time is what its calls reported, in the order they started.
-- Runs that overlap in time may each hold their own breaker (one per agent
-- instance), so calls of two runs can report different states at once: a
-- slice counts every state seen in it, and the event list follows the
-- calls in start order across runs, naming the run of each.

-- name: ui.breaker_strip
-- Per suite and tool with a circuit: the calls in each of $1 equal slices of
-- the time between the tool's first and last call in that suite, how many
-- saw the breaker open or half-open, and how many went through it open
-- (breaker violations). t_first and t_last (ms since the epoch) are the
-- slice ends, n_calls the tool's calls in all.
WITH c AS (
    SELECT r.suite, c.tool, c.started_at, coalesce(c.circuit, 'closed') AS state, coalesce(c.breaker_violation, false) AS breaker_violation
    FROM call_facts c JOIN run_facts r USING (run_id)
    WHERE c.started_at IS NOT NULL
), tools AS (
    SELECT suite, tool, min(started_at) AS t0, max(started_at) AS t1, count(*) AS n_calls
    FROM c GROUP BY suite, tool
    HAVING bool_or(state <> 'closed')
)
SELECT c.suite, c.tool,
       CASE WHEN t.t1 > t.t0
            THEN least($1 - 1, floor((epoch_us(c.started_at) - epoch_us(t.t0)) * $1 / (epoch_us(t.t1) - epoch_us(t.t0))))::INTEGER
            ELSE 0 END AS slice,
       count(*) AS calls,
       count(*) FILTER (WHERE state = 'open') AS open,
       count(*) FILTER (WHERE state = 'half_open') AS half_open,
       count(*) FILTER (WHERE breaker_violation) AS violations,
       any_value(epoch_us(t.t0)) / 1000.0 AS t_first, any_value(epoch_us(t.t1)) / 1000.0 AS t_last,
       any_value(t.n_calls) AS n_calls
FROM c JOIN tools t USING (suite, tool)
GROUP BY ALL
ORDER BY c.suite, c.tool, slice;

-- name: ui.breaker_events
-- The changes of state of each breaker with a circuit (the first call that
-- saw a new state) and every call through an open breaker, in time order
-- per suite and tool, at most $1 rows; total is how many there are.
WITH c AS (
    SELECT r.suite, c.tool, c.run_id, c.call_id, c.started_at, c.status,
           coalesce(c.circuit, 'closed') AS state, coalesce(c.breaker_violation, false) AS breaker_violation
    FROM call_facts c JOIN run_facts r USING (run_id)
    WHERE c.started_at IS NOT NULL
), tools AS (
    SELECT suite, tool FROM c GROUP BY suite, tool HAVING bool_or(state <> 'closed')
), seq AS (
    SELECT c.*, lag(state) OVER (PARTITION BY suite, tool ORDER BY started_at, run_id, call_id) AS prev
    FROM c JOIN tools USING (suite, tool)
), ev AS (
    SELECT * FROM seq
    WHERE breaker_violation OR state IS DISTINCT FROM coalesce(prev, 'closed')
)
SELECT suite, tool, epoch_us(started_at) / 1000.0 AS at_ms, coalesce(prev, 'closed') AS prev, state,
       run_id, call_id, status, breaker_violation, count(*) OVER () AS total
FROM ev
ORDER BY suite, tool, started_at, run_id, call_id
LIMIT $1;
