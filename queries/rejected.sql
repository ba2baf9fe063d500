-- name: rejected.list
-- Rejected lines in file and line order, at most $limit, for faultlens rejected.
SELECT path, line_no, reason, text FROM rejected_lines ORDER BY file_id, line_no LIMIT $limit;
