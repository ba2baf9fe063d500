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
-- args_digest are never duplicates.
CREATE OR REPLACE TEMP TABLE call_facts AS
WITH c AS (
    SELECT run_id, call_id, action_id, coalesce(attempt, 1) AS attempt, recovery, recovery_of,
           tool, args_digest, coalesce(side_effect, 'none') AS side_effect, idempotency_key,
           enqueued_at, started_at, ended_at, status, error, coalesce(circuit, 'closed') AS circuit,
           coalesce(source.fallback, false) AS fallback, source
    FROM scoped_events WHERE type = 'tool_call'
), p AS (
    SELECT *,
           lag(error) OVER w AS prev_error,
           lag(ended_at) OVER w AS prev_ended_at,
           lag(side_effect) OVER w AS prev_side_effect,
           min(action_id) OVER d AS earlier_min_action,
           max(action_id) OVER d AS earlier_max_action
    FROM c
    WINDOW w AS (PARTITION BY run_id, action_id ORDER BY attempt, started_at, call_id),
           d AS (PARTITION BY run_id, tool, args_digest ORDER BY epoch_us(started_at)
                 RANGE BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
), j AS (
    SELECT *,
           attempt > 1 AS resend,
           attempt > 1 AND coalesce(prev_error.retryable = false, false) AS r_not_retryable,
           attempt > 1 AND coalesce(prev_error.category IN ('VALIDATION','AUTHZ','NOT_FOUND','SAFETY','CONFLICT'), false) AS r_category,
           attempt > 1 AND side_effect = 'write' AND idempotency_key IS NULL AS r_write_without_key,
           attempt > 1 AND coalesce(prev_error.category = 'UNKNOWN_OUTCOME'
                                    AND (side_effect = 'write' OR prev_side_effect = 'write'), false) AS r_unknown_outcome_resend,
           attempt > 1 AND coalesce(started_at < prev_ended_at + to_milliseconds(prev_error.retry_after_ms), false) AS r_before_retry_after,
           attempt > 1 AND coalesce(prev_error.retry_after_ms > 0
                                    AND started_at >= prev_ended_at + to_milliseconds(prev_error.retry_after_ms), false) AS backed_off,
           args_digest IS NOT NULL AND earlier_min_action IS NOT NULL
               AND NOT (earlier_min_action = action_id AND earlier_max_action = action_id) AS duplicate,
           circuit = 'open' AS circuit_open,
           circuit = 'open' AND status <> 'fast_fail' AS breaker_violation
    FROM p
)
SELECT *,
       r_not_retryable OR r_category OR r_write_without_key OR r_unknown_outcome_resend OR r_before_retry_after AS invalid_resend
FROM j;
