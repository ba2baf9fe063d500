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
