-- The raw DuckDB figure that ingest is measured against (faultlens bench and
-- ingest's BenchmarkIngestJSONL): DuckDB's own typed NDJSON reader, every
-- contract field with its type, no validation. The files placeholder is one quoted path
-- or a list of them.

-- name: raw.read_ndjson
CREATE TABLE raw_events AS SELECT * FROM read_ndjson({{files}}, columns = {
 type: 'VARCHAR', run_id: 'VARCHAR', ts: 'TIMESTAMPTZ', seq: 'BIGINT', schema_version: 'BIGINT',
 suite: 'VARCHAR', scenario: 'VARCHAR',
 fault: 'STRUCT(class VARCHAR, kind VARCHAR, target_tool VARCHAR, expect STRUCT(action VARCHAR, terminal VARCHAR))',
 agent: 'STRUCT(name VARCHAR, version VARCHAR)', client_message_id: 'VARCHAR',
 caused_by: 'STRUCT(run_id VARCHAR, cause VARCHAR)',
 task: 'STRUCT(kind VARCHAR, requires_current_evidence BOOLEAN, evidence_required BIGINT, min_grade VARCHAR)',
 deadline_ms: 'BIGINT', retry_budget: 'BIGINT', stage_id: 'VARCHAR', stage: 'VARCHAR', attempt: 'BIGINT',
 enqueued_at: 'TIMESTAMPTZ', started_at: 'TIMESTAMPTZ', ended_at: 'TIMESTAMPTZ', outcome: 'VARCHAR',
 plan_valid: 'BOOLEAN', failure: 'STRUCT(category VARCHAR, retryable BOOLEAN, reason VARCHAR)',
 visible_chars: 'BIGINT', budget_ms: 'BIGINT', call_id: 'VARCHAR', action_id: 'VARCHAR', recovery: 'VARCHAR',
 recovery_of: 'VARCHAR', tool: 'VARCHAR', tool_version: 'VARCHAR', tool_schema: 'VARCHAR', args_digest: 'VARCHAR',
 side_effect: 'VARCHAR', idempotency_key: 'VARCHAR', status: 'VARCHAR',
 error: 'STRUCT(code VARCHAR, category VARCHAR, retryable BOOLEAN, retry_after_ms BIGINT,
                side_effect_state VARCHAR, message VARCHAR)',
 circuit: 'VARCHAR', source: 'STRUCT(name VARCHAR, grade VARCHAR, fallback BOOLEAN)',
 evidence_ids: 'VARCHAR[]', completed_scope: 'VARCHAR[]', missing_scope: 'VARCHAR[]', role: 'VARCHAR',
 evidence_id: 'VARCHAR', claim: 'VARCHAR', grade: 'VARCHAR', path: 'VARCHAR', terminal: 'VARCHAR',
 reason: 'VARCHAR', chunks_committed: 'BIGINT', chunks_rejected: 'BIGINT', disclosed_gaps: 'BOOLEAN',
 degradations: 'VARCHAR[]'});

-- name: raw.count_events
SELECT count(*) FROM raw_events;

-- name: raw.arrow_insert
-- The Arrow file's columns, copied beforehand to the Parquet file at the
-- path placeholder, loaded into a table.
CREATE TABLE raw_arrow AS SELECT * FROM read_parquet({{path}});

-- name: raw.count_arrow
SELECT count(*) FROM raw_arrow;

-- name: raw.scan
SELECT type, tool, status, count(*), count(DISTINCT run_id),
       avg(date_diff('millisecond', started_at, ended_at)), min(ts), max(ts)
FROM events GROUP BY ALL
