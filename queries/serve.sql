-- The live receiver (faultlens serve).

-- name: serve.rejected_reasons
-- Why the lines of one request (the files row $file_id) were rejected,
-- most common first, for the partial success message sent back to the
-- exporter.
SELECT reason, count(*) AS n
FROM rejected_lines
WHERE file_id = $file_id
GROUP BY reason
ORDER BY n DESC, reason;

-- name: serve.rejected_of_traces
-- Why the rejected events of one request of a group commit (the files row
-- $file_id holds several requests) were rejected: those of the request's
-- traces, named in the JSON array $trace_ids (each rejected OTLP event
-- names its trace in otlp_rejected).
SELECT reason, count(*) AS n
FROM otlp_rejected
WHERE file_id = $file_id
  AND trace_id IN (SELECT unnest(CAST(CAST($trace_ids AS JSON) AS VARCHAR[])))
GROUP BY reason
ORDER BY n DESC, reason;

-- name: serve.refused_lines
-- The lines of a group commit ($file_id) that were not OTLP/JSON: each is
-- one request, refused whole. They are the rejected lines that are not a
-- rejected event (those are in otlp_rejected).
SELECT r.line_no, r.reason
FROM rejected_lines r
WHERE r.file_id = $file_id
  AND NOT EXISTS (SELECT 1 FROM otlp_rejected o
                  WHERE o.file_id = r.file_id AND o.line_no = r.line_no AND o.reason = r.reason)
ORDER BY r.line_no;
