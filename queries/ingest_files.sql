-- Ingest's bookkeeping: the files table, rejected lines one at a time, the
-- settings ingest sizes its work by, and the statements that frame the
-- validation of Parquet and Arrow input. Placeholders are filled by
-- queries.Render from ingest/*.go. ingest.parquet_ts_column (a timestamp
-- column with a zone as the RFC 3339 UTC text the contract reads) has no
-- comment of its own: it is spliced into a select list.

-- name: ingest.file_by_hash
SELECT path FROM files WHERE sha256 = ?

-- name: ingest.files_by_hash
-- The hashes placeholder is a list of quoted SQL literals.
SELECT sha256, path FROM files WHERE sha256 IN ({{hashes}})

-- name: ingest.next_file_id
SELECT coalesce(max(file_id), 0) + 1 FROM files

-- name: ingest.insert_file
INSERT INTO files VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, now())

-- name: ingest.insert_files
-- A batch of files in one statement (one INSERT per file cost ~0.4 ms each);
-- rows is ingest.file_row repeated, joined by commas.
INSERT INTO files VALUES {{rows}}

-- name: ingest.file_row
(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, now())

-- name: ingest.batch_events
-- Events per file of a batch, to check that every line became one.
SELECT file_id, count(*) FROM events WHERE file_id BETWEEN ? AND ? GROUP BY file_id

-- name: ingest.insert_rejected_line
INSERT INTO rejected_lines VALUES (?, ?, ?, ?, ?)

-- name: ingest.count_rejected
SELECT count(*) FROM rejected_lines WHERE file_id = ?

-- name: ingest.limits
-- The settings ingest sizes its chunks, batches and threads by.
SELECT current_setting('memory_limit'), current_setting('threads')

-- name: ingest.set_threads
SET threads = {{threads}}

-- name: ingest.last_line
SELECT coalesce(max(line_no), 0) FROM ingest_lines

-- name: ingest.parquet_rows
SELECT count(*) FROM read_parquet({{path}})

-- name: ingest.parquet_columns
SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet({{path}}))

-- name: ingest.parquet_ts_column
strftime({{column}} AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%S.%fZ') AS {{column}}

-- name: ingest.arrow_refused
SELECT (SELECT count(*) FROM ingest_checked WHERE reason IS NOT NULL) + (SELECT count(*) FROM ingest_dups)

-- name: ingest.arrow_check
-- The line-precise table of the typed Arrow path: the rules over
-- ingest.arrow_typed with extra; text stays NULL until ingest.arrow_texts.
CREATE OR REPLACE TEMP TABLE ingest_checked AS
SELECT * EXCLUDE (src_row), {{extra}} AS extra FROM ({{checked}})

-- name: ingest.arrow_texts
-- The text of the rows that will be rejected (a broken rule or a
-- duplicate): the row as JSON, cut as a rejected line is. It reads the rows
-- again, so a clean file (checked by the caller) skips it.
UPDATE ingest_checked c SET text = s.text
FROM (SELECT line_no, left(to_json(src_row)::VARCHAR, 1024) AS text FROM ({{typed}})) s
WHERE c.line_no = s.line_no
  AND (c.reason IS NOT NULL OR c.line_no IN (SELECT line_no FROM ingest_dups))

-- name: ingest.arrow_typed
-- The typed relation over the Parquet copy of an Arrow file, in chunk files
-- of chunk_rows rows each but the last (see ingest/arrow_typed.go, which
-- generates the expressions from its schema, and ingest/arrow_chunks.go):
-- line_no is the 1-based row number; src_row, the whole row, gives the text
-- of a rejected row and extra. base is the rows before the first of paths
-- (0, or the rows of the chunks an earlier statement read).
SELECT {{base}} + CAST(file_index AS BIGINT) * {{chunk_rows}} + file_row_number + 1 AS line_no, NULL::VARCHAR AS text, NULL::JSON AS raw,
  {{event}} AS e,
  NULL::VARCHAR[] AS jt,
  {{ts_v}} AS ts_v, {{enq_v}} AS enq_v, {{start_v}} AS start_v, {{end_v}} AS end_v,
  {{bad_field}} AS bad_field,
  {{src_row}} AS src_row
FROM read_parquet({{paths}}, file_row_number = true) p
