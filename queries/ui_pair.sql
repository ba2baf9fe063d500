-- The dashboard's paired run diff: the same request in two suites.

-- name: ui.run_twin
-- The run of suite $other that answers the same request as run $run_id:
-- the same client_message_id (the logical user request; of several
-- replays, the last to start), else, between runs without one, the same
-- scenario and task kind at the same place in start order within its
-- suite. matched_by says which. Only the runs of the same request, or of
-- the same scenario and task kind, are ranked, so the call stays cheap on
-- a large suite.
WITH me AS (
    SELECT r.run_id, r.suite, r.scenario, coalesce(r.task.kind, '') AS kind,
           (SELECT any_value(client_message_id) FROM scoped_events WHERE type = 'run' AND run_id = $run_id) AS msg
    FROM run_facts r WHERE r.run_id = $run_id
), by_msg AS (
    SELECT e.run_id
    FROM scoped_events e JOIN run_facts r USING (run_id) CROSS JOIN me
    WHERE e.type = 'run' AND e.client_message_id = me.msg AND r.suite = $other AND e.run_id <> me.run_id
    ORDER BY r.started_at DESC, e.run_id
    LIMIT 1
), with_msg AS (
    SELECT DISTINCT run_id FROM scoped_events WHERE type = 'run' AND client_message_id IS NOT NULL
), peers AS (
    SELECT r.run_id, r.suite, row_number() OVER (PARTITION BY r.suite ORDER BY r.started_at, r.run_id) AS ord
    FROM run_facts r CROSS JOIN me
    WHERE me.msg IS NULL AND r.suite IN ($other, me.suite) AND r.scenario = me.scenario
      AND coalesce(r.task.kind, '') = me.kind AND r.run_id NOT IN (SELECT run_id FROM with_msg)
)
SELECT run_id, 'client_message_id' AS matched_by FROM by_msg
UNION ALL
SELECT t.run_id, 'scenario, task kind and start order'
FROM peers t JOIN peers m ON m.run_id = $run_id AND t.ord = m.ord
WHERE t.suite = $other AND t.run_id <> $run_id
LIMIT 1;
