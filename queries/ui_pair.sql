-- The dashboard's paired run diff: the same task in two suites.

-- name: ui.run_twin
-- The run of suite $2 that answers the same request as run $1: the same
-- client_message_id (the logical user request; of several replays, the
-- last), else, between runs without one, the same scenario and task kind
-- at the same place in start order within its suite. matched_by says which.
WITH runs AS (
    SELECT r.run_id, r.suite, r.scenario, coalesce(r.task.kind, '') AS kind, r.started_at, e.msg
    FROM run_facts r
    LEFT JOIN (SELECT run_id, any_value(client_message_id) AS msg
               FROM scoped_events WHERE type = 'run' GROUP BY run_id) e USING (run_id)
    WHERE r.suite = $2 OR r.suite = (SELECT suite FROM run_facts WHERE run_id = $1)
), ranked AS (
    SELECT *, row_number() OVER (PARTITION BY suite, scenario, kind, msg IS NULL ORDER BY started_at, run_id) AS ord
    FROM runs
), me AS (
    SELECT * FROM ranked WHERE run_id = $1
)
SELECT t.run_id,
       CASE WHEN t.msg = me.msg THEN 'client_message_id' ELSE 'scenario, task kind and start order' END AS matched_by
FROM ranked t CROSS JOIN me
WHERE t.suite = $2 AND t.run_id <> me.run_id
  AND (t.msg = me.msg
       OR (t.msg IS NULL AND me.msg IS NULL AND t.scenario = me.scenario AND t.kind = me.kind AND t.ord = me.ord))
ORDER BY coalesce(t.msg = me.msg, false) DESC, t.started_at DESC, t.run_id
LIMIT 1;
