-- Per tool call facts: re-send judgements and duplicates. Every metric over
-- tool calls aggregates this table (temp, per report connection).

-- name: facts.calls
-- The previous attempt of a re-send is the attempt before it in its action,
-- ordered by attempt number, then start time (the contract's "previous
-- attempt of that action"). A re-send whose previous attempt is missing from
-- the trace can still be invalid as a write without idempotency key.
-- before_retry_after applies whenever the previous attempt gave
-- retry_after_ms, 0 included (the contract sets no lower bound there, so a
-- re-send that starts before its previous attempt ended is premature); it
-- does not apply without retry_after_ms. "backoff" (observed, for
-- expectations) needs retry_after_ms > 0, as the contract says.
-- A duplicate repeats an earlier-started call (strictly earlier) of the same
-- run, tool and args_digest under another action_id; calls without
-- args_digest are never duplicates. Computed without a sliding window: per
-- (run, tool, digest) take the two actions that started first (s1 of a1,
-- s2 of the other); a call of a1 is a duplicate iff s2 < its start, any
-- other call iff s1 < its start.
CREATE OR REPLACE TEMP TABLE call_facts AS
WITH c AS (
    SELECT run_id, call_id, action_id, coalesce(attempt, 1) AS attempt, recovery, recovery_of,
           tool, args_digest, coalesce(side_effect, 'none') AS side_effect, idempotency_key,
           enqueued_at, started_at, ended_at, status, error, coalesce(circuit, 'closed') AS circuit,
           coalesce(source.fallback, false) AS fallback
    FROM scoped_events WHERE type = 'tool_call'
), action_starts AS (
    SELECT run_id, tool, args_digest, action_id, min(started_at) AS first_start
    FROM c WHERE args_digest IS NOT NULL
    GROUP BY run_id, tool, args_digest, action_id
), firsts AS (
    -- The two actions that started first, in the order (first start, NULL
    -- last; action_id): a1 is the first, s1 and s2 the two smallest starts
    -- (min(x, 2) skips NULLs as that order puts them last). One
    -- aggregation instead of a row_number window over every action.
    SELECT run_id, tool, args_digest,
           arg_min(action_id, (coalesce(first_start, 'infinity'::TIMESTAMPTZ), action_id IS NULL, coalesce(action_id, ''))) AS a1,
           min(first_start) AS s1,
           min(first_start, 2)[2] AS s2
    FROM action_starts
    GROUP BY run_id, tool, args_digest
    HAVING count(*) >= 2
), resends AS (
    SELECT * FROM c WHERE attempt > 1
), prev AS (
    -- The previous attempt of each re-send (only re-sends need one; a join
    -- on the few re-sends is cheaper than a window over every call).
    SELECT r.run_id, r.call_id,
           arg_max({'retryable': o.error.retryable, 'category': o.error.category,
                    'retry_after_ms': o.error.retry_after_ms, 'ended_at': o.ended_at,
                    'side_effect': o.side_effect},
                   (o.attempt, o.started_at, o.call_id)) AS pv
    FROM resends r
    JOIN c o ON o.run_id = r.run_id AND o.action_id = r.action_id
            AND (o.attempt, o.started_at, o.call_id) < (r.attempt, r.started_at, r.call_id)
    GROUP BY r.run_id, r.call_id
), cp AS (
    -- Calls with their previous attempt: the re-sends joined with prev,
    -- every other call as it is, having none (prev is keyed by the re-send's
    -- call_id, unique in its run: ingest keeps one event per call_id). A
    -- LEFT JOIN of every call with prev was built on the calls, the
    -- estimate of prev being far too high.
    SELECT *, NULL::BOOLEAN AS prev_retryable, NULL::VARCHAR AS prev_category,
           NULL::BIGINT AS prev_retry_after_ms, NULL::TIMESTAMPTZ AS prev_ended_at,
           NULL::VARCHAR AS prev_side_effect
    FROM c WHERE attempt <= 1
    UNION ALL
    SELECT r.*, pv.retryable, pv.category, pv.retry_after_ms, pv.ended_at, pv.side_effect
    FROM resends r LEFT JOIN prev USING (run_id, call_id)
), p AS (
    SELECT cp.*,
           CASE WHEN f.a1 IS NULL THEN false
                WHEN cp.action_id = f.a1 THEN f.s2 < cp.started_at
                ELSE f.s1 < cp.started_at END AS is_duplicate
    FROM cp LEFT JOIN firsts f USING (run_id, tool, args_digest)
), j AS (
    SELECT *,
           attempt > 1 AS resend,
           attempt > 1 AND coalesce(prev_retryable = false, false) AS r_not_retryable,
           attempt > 1 AND coalesce(prev_category IN ('VALIDATION','AUTHZ','NOT_FOUND','SAFETY','CONFLICT'), false) AS r_category,
           attempt > 1 AND side_effect = 'write' AND idempotency_key IS NULL AS r_write_without_key,
           attempt > 1 AND coalesce(prev_category = 'UNKNOWN_OUTCOME'
                                    AND (side_effect = 'write' OR prev_side_effect = 'write'), false) AS r_unknown_outcome_resend,
           attempt > 1 AND coalesce(started_at < prev_ended_at + to_milliseconds(prev_retry_after_ms), false) AS r_before_retry_after,
           attempt > 1 AND coalesce(prev_retry_after_ms > 0
                                    AND started_at >= prev_ended_at + to_milliseconds(prev_retry_after_ms), false) AS backed_off,
           coalesce(is_duplicate, false) AS duplicate,
           circuit = 'open' AS circuit_open,
           circuit = 'open' AND status <> 'fast_fail' AS breaker_violation
    FROM p
)
SELECT *,
       r_not_retryable OR r_category OR r_write_without_key OR r_unknown_outcome_resend OR r_before_retry_after AS invalid_resend
FROM j;
