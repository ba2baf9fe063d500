-- Suites and the per-suite report cache (table suite_metrics).

-- name: suites.all
-- Every suite with runs, and 'unknown' when some run has no run event.
SELECT DISTINCT suite FROM events WHERE type = 'run'
UNION
SELECT 'unknown' WHERE EXISTS (
    SELECT run_id FROM events GROUP BY run_id HAVING count(*) FILTER (WHERE type = 'run') = 0)
ORDER BY 1;

-- name: cache.get
SELECT suite, report::VARCHAR, files_upto FROM suite_metrics WHERE metrics_version = ?;

-- name: cache.put
INSERT OR REPLACE INTO suite_metrics (suite, metrics_version, computed_at, report, files_upto)
VALUES (?, ?, now(), ?, ?);

-- name: cache.delete
DELETE FROM suite_metrics WHERE suite = ?;

-- name: cache.state
-- The cache watermark (every suite a file up to it touches has a current
-- row, or none) and the highest committed file id.
SELECT coalesce((SELECT try_cast(value AS BIGINT) FROM faultlens_meta WHERE key = 'cache_files_upto'), 0),
       (SELECT coalesce(max(file_id), 0) FROM files);

-- name: cache.set_watermark
INSERT OR REPLACE INTO faultlens_meta VALUES ('cache_files_upto', ?::VARCHAR);

-- name: cache.touched_since
-- The suites whose report the files committed after the watermark ($1)
-- may change, each with the last such file and whether a run of it is
-- certainly among the new events. A run belongs to the suite of its run
-- event, wherever that was ingested; 'unknown' (runs without a run event)
-- may change with any new file, since a new run event can move a run out
-- of it (finding out for sure would scan every older event).
WITH newer AS (
    SELECT run_id, max(file_id) AS last_file FROM events WHERE file_id > $1 GROUP BY run_id
), owner AS (
    SELECT run_id, min(suite) AS suite FROM events
    WHERE type = 'run' AND run_id IN (SELECT run_id FROM newer) GROUP BY run_id
), touched AS (
    SELECT coalesce(o.suite, 'unknown') AS suite, n.last_file, true AS certain
    FROM newer n LEFT JOIN owner o USING (run_id)
    UNION ALL
    SELECT 'unknown', max(file_id), false FROM files WHERE file_id > $1 HAVING count(*) > 0
)
SELECT suite, max(last_file), bool_or(certain) FROM touched GROUP BY suite ORDER BY suite;

-- name: cache.cap
-- After a prune has deleted files, no row or watermark may point past the
-- highest file left: a new file reuses the id and must count as newer.
UPDATE suite_metrics SET files_upto = least(files_upto, (SELECT coalesce(max(file_id), 0) FROM files));

-- name: cache.cap_watermark
UPDATE faultlens_meta
SET value = least(try_cast(value AS BIGINT), (SELECT coalesce(max(file_id), 0) FROM files))::VARCHAR
WHERE key = 'cache_files_upto';

-- name: cache.suites
SELECT suite FROM suite_metrics ORDER BY suite;
