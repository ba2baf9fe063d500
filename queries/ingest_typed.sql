-- The typed fast path for JSON Lines: DuckDB's typed NDJSON reader
-- (read_ndjson with columns), the nearest ingest can come to DuckDB's own
-- read. It judges only files it can judge exactly as ingest.json_typed
-- would: a file with a field the contract does not name (ingest.unknown_keys)
-- or a value the read may have coerced (ingest.typed_macros) goes the JSON
-- way instead, and a file with a rejected row the line-precise way. The
-- placeholders are generated from the contract's field list
-- (ingest/typed_sql.go).

-- name: ingest.typed_macros
-- A value the typed read may have coerced from another JSON type (see
-- ingest/typed_sql.go): text that was true, false, an object or an array; an
-- integer that was not a plain run of digits fitting BIGINT; a boolean that
-- was not true or false. The plural macros judge all the fields of one kind
-- of a row at once: typedSuspect joins them into one text, each string
-- between chr(1) and chr(2), each integer and boolean after a comma. A string
-- that holds chr(1) itself may be flagged though fine: it then only takes
-- the JSON way. At most 18 digits always fit BIGINT; a longer integer that
-- fits takes the JSON way too.
CREATE OR REPLACE TEMP MACRO suspect_text(s) AS
  s IN ('true', 'false') OR starts_with(s, '{') OR starts_with(s, '[');
CREATE OR REPLACE TEMP MACRO suspect_texts(j) AS
  contains(j, chr(1) || 'true' || chr(2)) OR contains(j, chr(1) || 'false' || chr(2))
  OR contains(j, chr(1) || '{') OR contains(j, chr(1) || '[');
CREATE OR REPLACE TEMP MACRO suspect_integers(j) AS NOT regexp_full_match(j, '(,-?[0-9]{1,18})*');
CREATE OR REPLACE TEMP MACRO suspect_booleans(j) AS NOT regexp_full_match(j, '(,(true|false))*');

-- name: ingest.unknown_keys
-- Whether some line of the file names a key the contract does not, at the
-- top level or in one of its objects: k holds the keys at each object path,
-- and unknown tests them against the contract's. Such a file keeps those
-- lines whole in events.extra, which only the JSON way computes. The test
-- runs once per distinct k (a few hundred in a file of a million events),
-- grouped by its text (DuckDB quotes keys that need it, so equal texts are
-- equal lists): on every line, or with DISTINCT on the nested lists, it cost
-- as much as the typed read itself.
SELECT count(*) > 0 FROM (
  SELECT first(k) AS k
  FROM (SELECT json_keys(json, {{paths}}) AS k
        FROM read_ndjson_objects({{path}}, format = 'newline_delimited', maximum_object_size = 16777216))
  GROUP BY k::VARCHAR
) WHERE {{unknown}}

-- name: ingest.ndjson_typed
-- The typed relation that ingest.checked judges (the columns of
-- ingest.json_typed), read by DuckDB's typed NDJSON reader. bad_field holds
-- only the marker 'coerced' for a row typedSuspect flags: the fast path then
-- fails and the file goes the JSON way, which names the field.
SELECT NULL::BIGINT AS line_no, NULL::VARCHAR AS text, NULL::JSON AS raw, NULL::BIGINT AS file_id,
       {{event}} AS e,
       NULL::VARCHAR[] AS jt,
       coalesce(try_cast(ts AS TIMESTAMPTZ), try_cast(upper(ts) AS TIMESTAMPTZ)) AS ts_v,
       coalesce(try_cast(enqueued_at AS TIMESTAMPTZ), try_cast(upper(enqueued_at) AS TIMESTAMPTZ)) AS enq_v,
       coalesce(try_cast(started_at AS TIMESTAMPTZ), try_cast(upper(started_at) AS TIMESTAMPTZ)) AS start_v,
       coalesce(try_cast(ended_at AS TIMESTAMPTZ), try_cast(upper(ended_at) AS TIMESTAMPTZ)) AS end_v,
       CASE WHEN {{suspect}} THEN 'coerced' END AS bad_field
FROM read_ndjson({{path}}, columns = {{columns}}, format = 'newline_delimited', maximum_object_size = 16777216)

-- name: ingest.bench_read
-- BenchmarkTypedChecks: the typed read alone, every column kept.
SELECT * FROM read_ndjson({{path}}, columns = {{columns}}, format = 'newline_delimited', maximum_object_size = 16777216)

-- name: ingest.bench_table
-- BenchmarkTypedChecks: a step's relation materialized, as the raw figure
-- materializes its read.
CREATE TABLE bench_step AS {{select}}
