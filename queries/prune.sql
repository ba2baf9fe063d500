-- Retention: drop whole suites older than a cutoff and reclaim space
-- (store.Prune, then store.Compact).

-- name: prune.suites
-- Suites whose earliest run started before $cutoff, with their runs.
SELECT suite, min(started_at) AS started, count(DISTINCT run_id) AS runs
FROM events WHERE type = 'run'
GROUP BY suite HAVING min(started_at) < $cutoff
ORDER BY started;

-- name: prune.delete_otlp_spans
-- The stored OTLP spans of the traces of the runs of $suite (every OTLP
-- event names its trace in extra's otel.trace_id): left behind, a later
-- input of such a trace would bring the pruned run back. Run before the
-- events go.
DELETE FROM otlp_spans WHERE trace_id IN (
    SELECT json_extract_string(extra, '$.otel.trace_id') FROM events
    WHERE run_id IN (SELECT run_id FROM events WHERE type = 'run' AND suite = $suite)
      AND extra IS NOT NULL);

-- name: prune.delete_events
-- Every event of every run whose run event names $suite.
DELETE FROM events WHERE run_id IN (SELECT run_id FROM events WHERE type = 'run' AND suite = $suite);

-- name: prune.delete_rejected
-- Rejected lines of files that no longer hold any event.
DELETE FROM rejected_lines WHERE file_id NOT IN (SELECT DISTINCT file_id FROM events);

-- name: prune.delete_files
-- A file that holds no event any more is forgotten, so it could be ingested again.
DELETE FROM files WHERE file_id NOT IN (SELECT DISTINCT file_id FROM events);

-- name: prune.delete_orphan_otlp_spans
-- Spans owned by a forgotten file: its id will be given to the next file.
DELETE FROM otlp_spans WHERE file_id NOT IN (SELECT file_id FROM files);

-- name: prune.delete_orphan_otlp_rejected
-- The trace notes of rejected OTLP events whose file was forgotten or whose
-- trace's spans were pruned: nothing can re-convert that trace any more.
DELETE FROM otlp_rejected
WHERE file_id NOT IN (SELECT file_id FROM files)
   OR trace_id NOT IN (SELECT trace_id FROM otlp_spans);
