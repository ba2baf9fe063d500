-- Suites and the per-suite report cache (table suite_metrics).

-- name: suites.all
-- Every suite with runs, and 'unknown' when some run has no run event.
SELECT DISTINCT suite FROM events WHERE type = 'run'
UNION
SELECT 'unknown' WHERE EXISTS (
    SELECT run_id FROM events GROUP BY run_id HAVING count(*) FILTER (WHERE type = 'run') = 0)
ORDER BY 1;

-- name: suites.touched
-- The suites whose runs have events in the given files ({{files}} is a list
-- of file ids): a run split over nights belongs to the suite of its run
-- event, wherever that was ingested.
SELECT DISTINCT coalesce(r.suite, 'unknown') AS suite
FROM (SELECT DISTINCT run_id FROM events WHERE file_id IN ({{files}})) t
LEFT JOIN (SELECT run_id, min(suite) AS suite FROM events WHERE type = 'run' GROUP BY run_id) r USING (run_id);

-- name: cache.get
SELECT suite, report::VARCHAR FROM suite_metrics WHERE metrics_version = ?;

-- name: cache.put
INSERT OR REPLACE INTO suite_metrics VALUES (?, ?, now(), ?);

-- name: cache.delete
DELETE FROM suite_metrics WHERE suite = ?;
