-- Export as OpenTelemetry: every stored event with its typed columns and the
-- raw line kept in extra (unknown fields), run by run, each run's events in
-- ingest order. export/otlp*.go turns them into spans and span events of the
-- faultlens.* convention ({{suite}} as in export.events).

-- name: export.otlp_events
SELECT * EXCLUDE (file_id, extra), extra::VARCHAR AS extra
FROM events
WHERE {{suite}} IS NULL OR run_id IN (SELECT run_id FROM events WHERE type = 'run' AND suite = {{suite}})
ORDER BY run_id, file_id, rowid;
