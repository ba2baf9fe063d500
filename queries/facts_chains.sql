-- Recovery chains. Requires call_facts and run_facts.

-- name: facts.chains
-- An action's parent is the action of the call named by recovery_of of its
-- earliest call that names one in another action. Following parents gives
-- the root; cycles (which a sane trace does not have) are cut after 64 steps.
-- The category of a chain whose root has no attempt-1 call in the trace is
-- UNKNOWN, and such a chain cannot be first_try.
CREATE OR REPLACE TEMP TABLE chain_facts AS
WITH RECURSIVE links AS (
    SELECT c.run_id, c.action_id, arg_min(t.action_id, c.started_at) AS parent
    FROM call_facts c JOIN call_facts t ON t.run_id = c.run_id AND t.call_id = c.recovery_of
    WHERE t.action_id <> c.action_id
    GROUP BY c.run_id, c.action_id
), walk(run_id, action_id, cur, depth) AS (
    -- Only actions with a parent need walking; every other action is its
    -- own root (most actions: the walk stays small).
    SELECT run_id, action_id, action_id, 0 FROM links
    UNION ALL
    SELECT w.run_id, w.action_id, l.parent, w.depth + 1
    FROM walk w JOIN links l ON l.run_id = w.run_id AND l.action_id = w.cur
    WHERE w.depth < 64
), rooted AS (
    SELECT run_id, action_id, arg_max(cur, depth) AS root FROM walk GROUP BY run_id, action_id
), chain_calls AS (
    -- Every call with its chain's root: an action without a parent is its
    -- own root, so only the calls of the few walked actions need a join
    -- (a LEFT JOIN of every call was built on the calls, not on rooted).
    SELECT c.action_id AS root, c.* FROM call_facts c ANTI JOIN rooted r USING (run_id, action_id)
    UNION ALL
    SELECT r.root, c.* FROM call_facts c JOIN rooted r USING (run_id, action_id)
), chains AS (
    -- One aggregation per chain; f reads the root action's attempt-1 calls
    -- only (NULL when it has none), the first by (started_at, call_id), as
    -- one struct: one ordering key per call instead of four (arg_min_null:
    -- the first call's category even when NULL; status and tool are never
    -- NULL, ingest rejects a call without them).
    SELECT run_id, root,
           arg_min_null({'status': status, 'category': error.category, 'has_error': error IS NOT NULL, 'tool': tool},
                        (started_at, call_id)) FILTER (WHERE action_id = root AND attempt = 1) AS f,
           bool_or(action_id = root AND status = 'ok' AND NOT fallback) AS ok_root,
           bool_or(action_id <> root AND status = 'ok' AND NOT fallback) AS ok_other,
           bool_or(status = 'partial' OR (status = 'ok' AND fallback)) AS any_degraded,
           -- The first call's tool, the root's calls first: started_at alone
           -- is a plain key (never NULL for a call).
           coalesce(arg_min(tool, started_at) FILTER (WHERE action_id = root), arg_min(tool, started_at)) AS any_tool,
           count(*) AS calls
    FROM chain_calls GROUP BY run_id, root
)
SELECT c.run_id, r.suite, c.root, coalesce(c.f.tool, c.any_tool) AS tool, c.calls,
       CASE WHEN c.f.status = 'ok' THEN 'first_try'
            WHEN c.ok_root THEN 'after_retry'
            WHEN c.ok_other THEN 'after_switch'
            WHEN c.any_degraded THEN 'degraded'
            ELSE 'failed' END AS outcome,
       CASE WHEN c.f.status = 'ok' THEN 'none'
            WHEN c.f.status IS NULL THEN 'UNKNOWN'
            WHEN c.f.has_error AND c.f.category IS NOT NULL THEN c.f.category
            WHEN c.f.status = 'partial' THEN 'PARTIAL'
            ELSE 'UNKNOWN' END AS category
FROM chains c
-- The run's suite, once here rather than in each reader (the recovery
-- breakdown, the comparison's chains): every run with calls has run facts.
LEFT JOIN run_facts r USING (run_id);
