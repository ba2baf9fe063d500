-- Assembling OTLP runs by trace id across inputs (files, and requests to a
-- receiver). Each trace seen in OTLP keeps one row: every span known of it,
-- as one OTLP/JSON document, owned by the file whose events hold the
-- trace's runs now (gzip-compressed: OTLP/JSON repeats its keys, and the
-- documents would otherwise outweigh the events several times). A new input of the trace reads the row, converts the
-- trace whole, replaces the runs earlier inputs wrote, and takes the row
-- over (ingest/otlp.go, otlp.Batch).

-- name: otlp.spans_table
CREATE TABLE IF NOT EXISTS otlp_spans (
    trace_id VARCHAR PRIMARY KEY,
    file_id  BIGINT NOT NULL,
    spans    BLOB NOT NULL
);

-- name: otlp.stored_spans
-- The stored spans of the traces named in the JSON array (?).
SELECT trace_id, spans FROM otlp_spans
WHERE trace_id IN (SELECT unnest(CAST(CAST(? AS JSON) AS VARCHAR[])))
ORDER BY trace_id;

-- name: otlp.delete_superseded
-- The events that earlier OTLP files wrote from the spans of the traces
-- named in the JSON array ($1): every OTLP event names its span's trace in
-- otel.trace_id (kept in extra). They are written again, whole, from every
-- span of the trace: the generic mapping's runs and the convention's. A
-- trace's events are all in the file that owns its otlp_spans row (each
-- input deletes them and takes the row over in one transaction), so only
-- those files' events are read, not every OTLP event stored so far.
DELETE FROM events
WHERE file_id IN (SELECT file_id FROM otlp_spans
                  WHERE trace_id IN (SELECT unnest(CAST(CAST($1 AS JSON) AS VARCHAR[]))))
  AND json_extract_string(extra, '$.otel.trace_id') IN (SELECT unnest(CAST(CAST($1 AS JSON) AS VARCHAR[])));

-- name: otlp.store_spans
-- Keep (or take over) a trace's spans: trace id, file id, document.
INSERT OR REPLACE INTO otlp_spans VALUES (?, ?, ?);
