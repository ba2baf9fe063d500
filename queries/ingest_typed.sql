-- The typed fast path for JSON Lines: DuckDB's typed NDJSON reader
-- (read_ndjson with columns), the nearest ingest can come to DuckDB's own
-- read. It judges only files it can judge exactly as ingest.json_typed
-- would: Go's key/type scan (ingest/keyscan.go, run by the prescan) sends a
-- file with a field the contract does not name or a value of another JSON
-- type the JSON way instead, a malformed line the line-precise way, and a
-- file with a rejected row goes the line-precise way too. The placeholders
-- are generated from the contract's field list (ingest/typed_sql.go).

-- name: ingest.ndjson_typed
-- The typed relation that ingest.checked judges (the columns of
-- ingest.json_typed), read by DuckDB's typed NDJSON reader. bad_field is
-- NULL: the key/type scan let only values of the contract's types through.
SELECT NULL::BIGINT AS line_no, NULL::VARCHAR AS text, NULL::JSON AS raw, NULL::BIGINT AS file_id,
       {{event}} AS e,
       NULL::VARCHAR[] AS jt,
       coalesce(try_cast(ts AS TIMESTAMPTZ), try_cast(upper(ts) AS TIMESTAMPTZ)) AS ts_v,
       coalesce(try_cast(enqueued_at AS TIMESTAMPTZ), try_cast(upper(enqueued_at) AS TIMESTAMPTZ)) AS enq_v,
       coalesce(try_cast(started_at AS TIMESTAMPTZ), try_cast(upper(started_at) AS TIMESTAMPTZ)) AS start_v,
       coalesce(try_cast(ended_at AS TIMESTAMPTZ), try_cast(upper(ended_at) AS TIMESTAMPTZ)) AS end_v,
       NULL::VARCHAR AS bad_field
FROM read_ndjson({{path}}, columns = {{columns}}, format = 'newline_delimited', maximum_object_size = 16777216)

-- name: ingest.bench_read
-- BenchmarkTypedChecks: the typed read alone, every column kept.
SELECT * FROM read_ndjson({{path}}, columns = {{columns}}, format = 'newline_delimited', maximum_object_size = 16777216)

-- name: ingest.bench_table
-- BenchmarkTypedChecks: a step's relation materialized, as the raw figure
-- materializes its read.
CREATE TABLE bench_step AS {{select}}
