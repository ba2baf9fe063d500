-- Assembling OTLP runs by trace id across inputs (files, and requests to a
-- receiver). Each trace seen in OTLP keeps one row: every span known of it,
-- as one OTLP/JSON document, owned by the file whose events hold the
-- trace's runs now (gzip-compressed: OTLP/JSON repeats its keys, and the
-- documents would otherwise outweigh the events several times). A new input of the trace reads the row, converts the
-- trace whole, replaces the runs earlier inputs wrote, and takes the row
-- over (ingest/otlp.go, otlp.Batch).

-- name: otlp.tables
-- otlp_rejected names the trace of each event of an OTLP input that was
-- rejected (a rejected_lines row: file, line of the input's events, reason).
-- When a later input converts the trace again, those rejections go with the
-- trace's events (otlp.delete_superseded_rejected): the new conversion
-- rejects them again if they still break a rule, so each is counted once.
-- Both tables are made by the first OTLP input, as no other command reads
-- them; a database whose traces were stored before otlp_rejected existed
-- keeps those traces' earlier rejections.
CREATE TABLE IF NOT EXISTS otlp_spans (
    trace_id VARCHAR PRIMARY KEY,
    file_id  BIGINT NOT NULL,
    spans    BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS otlp_rejected (
    trace_id VARCHAR NOT NULL,
    file_id  BIGINT NOT NULL,
    line_no  BIGINT NOT NULL,
    reason   VARCHAR NOT NULL
);

-- name: otlp.stored_spans
-- The stored spans of the traces named in the JSON array ($trace_ids), and whether
-- an event of the trace was rejected.
SELECT trace_id, spans, trace_id IN (SELECT trace_id FROM otlp_rejected) AS rejected
FROM otlp_spans
WHERE trace_id IN (SELECT unnest(CAST(CAST($trace_ids AS JSON) AS VARCHAR[])))
ORDER BY trace_id;

-- name: otlp.delete_superseded
-- The events that earlier OTLP files wrote from the spans of the traces
-- named in the JSON array ($trace_ids): every OTLP event names its span's trace in
-- otel.trace_id (kept in extra). They are written again, whole, from every
-- span of the trace: the generic mapping's runs and the convention's. A
-- trace's events are all in the file that owns its otlp_spans row (each
-- input deletes them and takes the row over in one transaction), so only
-- those files' events are read, not every OTLP event stored so far.
DELETE FROM events
WHERE file_id IN (SELECT file_id FROM otlp_spans
                  WHERE trace_id IN (SELECT unnest(CAST(CAST($trace_ids AS JSON) AS VARCHAR[]))))
  AND json_extract_string(extra, '$.otel.trace_id') IN (SELECT unnest(CAST(CAST($trace_ids AS JSON) AS VARCHAR[])));

-- name: otlp.store_spans
-- Keep (or take over) traces' spans: {{tuples}} is one (?, ?, ?) per trace,
-- for its trace id, file id and document (positional: the number of rows
-- varies, so the parameters cannot be named once). Many traces go in one statement:
-- one statement per trace cost a receiver ~1 ms a trace (docs/serve.md).
INSERT OR REPLACE INTO otlp_spans VALUES {{tuples}};

-- name: otlp.delete_superseded_rejected
-- The rejected events that earlier inputs recorded for the traces named in
-- the JSON array ($trace_ids), in the same transaction as otlp.delete_superseded.
DELETE FROM rejected_lines r USING otlp_rejected o
WHERE o.trace_id IN (SELECT unnest(CAST(CAST($trace_ids AS JSON) AS VARCHAR[])))
  AND r.file_id = o.file_id AND r.line_no = o.line_no AND r.reason = o.reason;

-- name: otlp.forget_rejected
-- Forget those rejections.
DELETE FROM otlp_rejected WHERE trace_id IN (SELECT unnest(CAST(CAST($trace_ids AS JSON) AS VARCHAR[])));

-- name: otlp.forget_file_rejected
-- Rows under the new input's file id ($file_id) are stale: prune removed the file
-- that had the id before. They go before the input's own are recorded.
DELETE FROM otlp_rejected WHERE file_id = $file_id;

-- name: otlp.record_rejected
-- The trace of each event of the input ($file_id) that was rejected, read from
-- the event's otel.trace_id. The input's own rejected lines (not OTLP/JSON)
-- are numbered as the input, not as its events, and may share a line
-- number with an event: they are told apart by their text, which for a
-- rejected event is the start of the event's line.
INSERT INTO otlp_rejected
SELECT trace_id, file_id, line_no, reason FROM (
    SELECT CASE WHEN json_valid(l.text) THEN json_extract_string(l.text, '$.otel.trace_id') END AS trace_id,
           r.file_id, r.line_no, r.reason
    FROM rejected_lines r JOIN ingest_lines l ON l.line_no = r.line_no AND r.text = left(l.text, 1024)
    WHERE r.file_id = $file_id)
WHERE trace_id IS NOT NULL;
