-- Retention: drop whole suites older than a cutoff and reclaim space.

-- name: prune.suites
-- Suites whose earliest run started before the cutoff (?), with their runs.
SELECT suite, min(started_at) AS started, count(DISTINCT run_id) AS runs
FROM events WHERE type = 'run'
GROUP BY suite HAVING min(started_at) < ?
ORDER BY started;

-- name: prune.delete_events
-- Every event of every run whose run event names the suite (?).
DELETE FROM events WHERE run_id IN (SELECT run_id FROM events WHERE type = 'run' AND suite = ?);

-- name: prune.delete_rejected
-- Rejected lines of files that no longer hold any event.
DELETE FROM rejected_lines WHERE file_id NOT IN (SELECT DISTINCT file_id FROM events);

-- name: prune.delete_files
-- A file that holds no event any more is forgotten, so it could be ingested again.
DELETE FROM files WHERE file_id NOT IN (SELECT DISTINCT file_id FROM events);
