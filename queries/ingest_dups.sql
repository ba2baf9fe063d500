-- Duplicate events: the same event delivered twice (at-least-once exporters,
-- a file copied into two batches) is kept once. Identity: tool and model
-- calls by call_id, evidence by evidence_id, stages by stage_id, the run
-- event by run_id; a terminal only when it repeats terminal, ts and seq (a
-- different second terminal is a seal violation to report, not a duplicate).
-- Duplicates are rejected lines with reason "duplicate event (same KEY)", so
-- that they are counted and listed like every other line not stored.

-- name: ingest.new_duplicates
-- After the fast path's insert (inside its transaction): how many of the
-- events of files $1 to $2 (one file, or a batch of small files) repeat an
-- event already stored or another of theirs. Any means rollback and the
-- line-precise path, one file at a time, which names them.
WITH mine AS (SELECT DISTINCT run_id FROM events WHERE file_id BETWEEN $1 AND $2),
keyed AS (
    SELECT e.file_id, e.run_id,
           CASE e.type WHEN 'tool_call' THEN 'call_id ' || e.call_id
                       WHEN 'model_call' THEN 'model call_id ' || e.call_id
                       WHEN 'evidence' THEN 'evidence_id ' || e.evidence_id
                       WHEN 'stage' THEN 'stage_id ' || e.stage_id
                       WHEN 'run' THEN 'run event'
                       WHEN 'terminal' THEN 'terminal ' || e.terminal || ' ' || e.ts::VARCHAR || ' ' ||
                           coalesce(e.seq::VARCHAR, '') END AS key
    FROM events e SEMI JOIN mine USING (run_id)
)
SELECT count(*) FROM (
    SELECT run_id, key FROM keyed GROUP BY run_id, key
    HAVING count(*) > 1 AND bool_or(file_id BETWEEN $1 AND $2)
);

-- name: ingest.find_duplicates
-- Line-precise path: the line numbers of duplicate events, with their
-- reason. The first line of each identity in the file is kept unless the
-- identity is already stored; every other is a duplicate. Only identities
-- seen twice in the file, or already stored, are ranked, so a clean file
-- costs one hash aggregate.
CREATE OR REPLACE TEMP TABLE ingest_dups AS
WITH keyed AS (
    SELECT line_no, e.run_id AS run_id,
           CASE e.type WHEN 'tool_call' THEN 'call_id ' || e.call_id
                       WHEN 'model_call' THEN 'model call_id ' || e.call_id
                       WHEN 'evidence' THEN 'evidence_id ' || e.evidence_id
                       WHEN 'stage' THEN 'stage_id ' || e.stage_id
                       WHEN 'run' THEN 'run event'
                       WHEN 'terminal' THEN 'terminal ' || e.terminal || ' ' || ts_v::VARCHAR || ' ' ||
                           coalesce(e.seq::VARCHAR, '') END AS dup_key
    FROM ingest_checked WHERE reason IS NULL
), stored AS (
    SELECT DISTINCT e.run_id,
           CASE e.type WHEN 'tool_call' THEN 'call_id ' || e.call_id
                       WHEN 'model_call' THEN 'model call_id ' || e.call_id
                       WHEN 'evidence' THEN 'evidence_id ' || e.evidence_id
                       WHEN 'stage' THEN 'stage_id ' || e.stage_id
                       WHEN 'run' THEN 'run event'
                       WHEN 'terminal' THEN 'terminal ' || e.terminal || ' ' || e.ts::VARCHAR || ' ' ||
                           coalesce(e.seq::VARCHAR, '') END AS dup_key
    FROM events e SEMI JOIN (SELECT DISTINCT run_id FROM keyed) k ON k.run_id = e.run_id
), suspects AS (
    SELECT run_id, dup_key FROM keyed GROUP BY run_id, dup_key HAVING count(*) > 1
    UNION
    SELECT run_id, dup_key FROM stored
), ranked AS (
    SELECT k.line_no, k.dup_key, s.dup_key IS NOT NULL AS already,
           row_number() OVER (PARTITION BY k.run_id, k.dup_key ORDER BY k.line_no) AS nth
    FROM keyed k SEMI JOIN suspects USING (run_id, dup_key)
    LEFT JOIN stored s USING (run_id, dup_key)
)
SELECT line_no,
       'duplicate event (same ' || regexp_extract(dup_key,
           '^(call_id|model call_id|evidence_id|stage_id|run event|terminal)') || ')' AS reason
FROM ranked
WHERE dup_key IS NOT NULL AND (already OR nth > 1);

-- name: ingest.count_dups
-- The split route (ingest/fast_split.go): how many duplicates the last chunk
-- of its few line-by-line lines holds. Any means rollback and the whole file
-- line by line, which alone orders them against the typed lines.
SELECT count(*) FROM ingest_dups
