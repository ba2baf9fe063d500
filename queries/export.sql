-- Export: the canonical events, every contract field under its contract name,
-- timestamps as RFC 3339 UTC strings with microseconds (what ingest keeps),
-- nested objects as structs, arrays as lists. Rows come in ingest order.
-- Unknown fields kept in events.extra are not exported.
--
-- Placeholders, replaced by the caller: {{suite}} is a quoted SQL literal or
-- NULL (all suites); {{events}} is export.events; {{path}} a quoted path.

-- name: export.events
-- Every event of the chosen runs, in canonical form.
(SELECT type,
        run_id,
        strftime(ts, '%Y-%m-%dT%H:%M:%S.%fZ') AS ts,
        seq,
        schema_version,
        suite,
        scenario,
        fault,
        agent,
        client_message_id,
        caused_by,
        task,
        deadline_ms,
        retry_budget,
        stage_id,
        stage,
        attempt,
        strftime(enqueued_at, '%Y-%m-%dT%H:%M:%S.%fZ') AS enqueued_at,
        strftime(started_at, '%Y-%m-%dT%H:%M:%S.%fZ') AS started_at,
        strftime(ended_at, '%Y-%m-%dT%H:%M:%S.%fZ') AS ended_at,
        outcome,
        plan_valid,
        failure,
        visible_chars,
        budget_ms,
        call_id,
        action_id,
        recovery,
        recovery_of,
        tool,
        tool_version,
        tool_schema,
        args_digest,
        side_effect,
        idempotency_key,
        status,
        error,
        circuit,
        source,
        evidence_ids,
        completed_scope,
        missing_scope,
        role,
        evidence_id,
        claim,
        grade,
        path,
        terminal,
        reason,
        chunks_committed,
        chunks_rejected,
        disclosed_gaps,
        degradations
 FROM events
 WHERE {{suite}} IS NULL OR run_id IN (SELECT run_id FROM events WHERE type = 'run' AND suite = {{suite}})
 ORDER BY file_id, rowid)

-- name: export.count
SELECT count(*) FROM {{events}} e;

-- name: export.parquet
COPY {{events}} TO {{path}} (FORMAT parquet);

-- name: export.parquet_by_suite
-- Hive-partitioned Parquet for engines beyond one machine (DuckDB,
-- ClickHouse, Spark, Trino): {{path}}/events/suite=NAME/*.parquet. Every
-- event carries its run's suite (runs without a run event: 'unknown') as the
-- partition key; the metric SQL reads suite from run events only, so the
-- report over the partitions equals the report over the database.
COPY (SELECT * REPLACE (coalesce(r.suite, 'unknown') AS suite)
      FROM {{events}} e
      LEFT JOIN (SELECT run_id, min(suite) AS suite FROM events WHERE type = 'run' GROUP BY run_id) r USING (run_id))
TO {{path}} (FORMAT parquet, PARTITION_BY (suite), OVERWRITE_OR_IGNORE);

-- name: export.rejected_parquet
COPY (SELECT path, line_no, reason, text FROM rejected_lines ORDER BY file_id, line_no) TO {{path}} (FORMAT parquet);

-- name: export.jsonl_lines
-- One JSON object per event with NULL fields left out (the contract reads
-- JSON null as absent, but a canonical line does not carry them).
(SELECT ('{' || concat_ws(',',
    CASE WHEN e.type IS NOT NULL THEN '"type":' || to_json(e.type) END,
    CASE WHEN e.run_id IS NOT NULL THEN '"run_id":' || to_json(e.run_id) END,
    CASE WHEN e.ts IS NOT NULL THEN '"ts":' || to_json(e.ts) END,
    CASE WHEN e.seq IS NOT NULL THEN '"seq":' || to_json(e.seq) END,
    CASE WHEN e.schema_version IS NOT NULL THEN '"schema_version":' || to_json(e.schema_version) END,
    CASE WHEN e.suite IS NOT NULL THEN '"suite":' || to_json(e.suite) END,
    CASE WHEN e.scenario IS NOT NULL THEN '"scenario":' || to_json(e.scenario) END,
    CASE WHEN e.fault IS NOT NULL THEN '"fault":' || ('{' || concat_ws(',',
      CASE WHEN e.fault.class IS NOT NULL THEN '"class":' || to_json(e.fault.class) END,
      CASE WHEN e.fault.kind IS NOT NULL THEN '"kind":' || to_json(e.fault.kind) END,
      CASE WHEN e.fault.target_tool IS NOT NULL THEN '"target_tool":' || to_json(e.fault.target_tool) END,
      CASE WHEN e.fault.expect IS NOT NULL THEN '"expect":' || ('{' || concat_ws(',',
        CASE WHEN e.fault.expect.action IS NOT NULL THEN '"action":' || to_json(e.fault.expect.action) END,
        CASE WHEN e.fault.expect.terminal IS NOT NULL
             THEN '"terminal":' || to_json(e.fault.expect.terminal) END) || '}') END) || '}') END,
    CASE WHEN e.agent IS NOT NULL THEN '"agent":' || ('{' || concat_ws(',',
      CASE WHEN e.agent.name IS NOT NULL THEN '"name":' || to_json(e.agent.name) END,
      CASE WHEN e.agent.version IS NOT NULL THEN '"version":' || to_json(e.agent.version) END) || '}') END,
    CASE WHEN e.client_message_id IS NOT NULL THEN '"client_message_id":' || to_json(e.client_message_id) END,
    CASE WHEN e.caused_by IS NOT NULL THEN '"caused_by":' || ('{' || concat_ws(',',
      CASE WHEN e.caused_by.run_id IS NOT NULL THEN '"run_id":' || to_json(e.caused_by.run_id) END,
      CASE WHEN e.caused_by.cause IS NOT NULL THEN '"cause":' || to_json(e.caused_by.cause) END) || '}') END,
    CASE WHEN e.task IS NOT NULL THEN '"task":' || ('{' || concat_ws(',',
      CASE WHEN e.task.kind IS NOT NULL THEN '"kind":' || to_json(e.task.kind) END,
      CASE WHEN e.task.requires_current_evidence IS NOT NULL
           THEN '"requires_current_evidence":' || to_json(e.task.requires_current_evidence) END,
      CASE WHEN e.task.evidence_required IS NOT NULL
           THEN '"evidence_required":' || to_json(e.task.evidence_required) END,
      CASE WHEN e.task.min_grade IS NOT NULL THEN '"min_grade":' || to_json(e.task.min_grade) END) || '}') END,
    CASE WHEN e.deadline_ms IS NOT NULL THEN '"deadline_ms":' || to_json(e.deadline_ms) END,
    CASE WHEN e.retry_budget IS NOT NULL THEN '"retry_budget":' || to_json(e.retry_budget) END,
    CASE WHEN e.stage_id IS NOT NULL THEN '"stage_id":' || to_json(e.stage_id) END,
    CASE WHEN e.stage IS NOT NULL THEN '"stage":' || to_json(e.stage) END,
    CASE WHEN e.attempt IS NOT NULL THEN '"attempt":' || to_json(e.attempt) END,
    CASE WHEN e.enqueued_at IS NOT NULL THEN '"enqueued_at":' || to_json(e.enqueued_at) END,
    CASE WHEN e.started_at IS NOT NULL THEN '"started_at":' || to_json(e.started_at) END,
    CASE WHEN e.ended_at IS NOT NULL THEN '"ended_at":' || to_json(e.ended_at) END,
    CASE WHEN e.outcome IS NOT NULL THEN '"outcome":' || to_json(e.outcome) END,
    CASE WHEN e.plan_valid IS NOT NULL THEN '"plan_valid":' || to_json(e.plan_valid) END,
    CASE WHEN e.failure IS NOT NULL THEN '"failure":' || ('{' || concat_ws(',',
      CASE WHEN e.failure.category IS NOT NULL THEN '"category":' || to_json(e.failure.category) END,
      CASE WHEN e.failure.retryable IS NOT NULL THEN '"retryable":' || to_json(e.failure.retryable) END,
      CASE WHEN e.failure.reason IS NOT NULL THEN '"reason":' || to_json(e.failure.reason) END) || '}') END,
    CASE WHEN e.visible_chars IS NOT NULL THEN '"visible_chars":' || to_json(e.visible_chars) END,
    CASE WHEN e.budget_ms IS NOT NULL THEN '"budget_ms":' || to_json(e.budget_ms) END,
    CASE WHEN e.call_id IS NOT NULL THEN '"call_id":' || to_json(e.call_id) END,
    CASE WHEN e.action_id IS NOT NULL THEN '"action_id":' || to_json(e.action_id) END,
    CASE WHEN e.recovery IS NOT NULL THEN '"recovery":' || to_json(e.recovery) END,
    CASE WHEN e.recovery_of IS NOT NULL THEN '"recovery_of":' || to_json(e.recovery_of) END,
    CASE WHEN e.tool IS NOT NULL THEN '"tool":' || to_json(e.tool) END,
    CASE WHEN e.tool_version IS NOT NULL THEN '"tool_version":' || to_json(e.tool_version) END,
    CASE WHEN e.tool_schema IS NOT NULL THEN '"tool_schema":' || to_json(e.tool_schema) END,
    CASE WHEN e.args_digest IS NOT NULL THEN '"args_digest":' || to_json(e.args_digest) END,
    CASE WHEN e.side_effect IS NOT NULL THEN '"side_effect":' || to_json(e.side_effect) END,
    CASE WHEN e.idempotency_key IS NOT NULL THEN '"idempotency_key":' || to_json(e.idempotency_key) END,
    CASE WHEN e.status IS NOT NULL THEN '"status":' || to_json(e.status) END,
    CASE WHEN e.error IS NOT NULL THEN '"error":' || ('{' || concat_ws(',',
      CASE WHEN e.error.code IS NOT NULL THEN '"code":' || to_json(e.error.code) END,
      CASE WHEN e.error.category IS NOT NULL THEN '"category":' || to_json(e.error.category) END,
      CASE WHEN e.error.retryable IS NOT NULL THEN '"retryable":' || to_json(e.error.retryable) END,
      CASE WHEN e.error.retry_after_ms IS NOT NULL THEN '"retry_after_ms":' || to_json(e.error.retry_after_ms) END,
      CASE WHEN e.error.side_effect_state IS NOT NULL
           THEN '"side_effect_state":' || to_json(e.error.side_effect_state) END,
      CASE WHEN e.error.message IS NOT NULL THEN '"message":' || to_json(e.error.message) END) || '}') END,
    CASE WHEN e.circuit IS NOT NULL THEN '"circuit":' || to_json(e.circuit) END,
    CASE WHEN e.source IS NOT NULL THEN '"source":' || ('{' || concat_ws(',',
      CASE WHEN e.source.name IS NOT NULL THEN '"name":' || to_json(e.source.name) END,
      CASE WHEN e.source.grade IS NOT NULL THEN '"grade":' || to_json(e.source.grade) END,
      CASE WHEN e.source.fallback IS NOT NULL THEN '"fallback":' || to_json(e.source.fallback) END) || '}') END,
    CASE WHEN e.evidence_ids IS NOT NULL THEN '"evidence_ids":' || to_json(e.evidence_ids) END,
    CASE WHEN e.completed_scope IS NOT NULL THEN '"completed_scope":' || to_json(e.completed_scope) END,
    CASE WHEN e.missing_scope IS NOT NULL THEN '"missing_scope":' || to_json(e.missing_scope) END,
    CASE WHEN e.role IS NOT NULL THEN '"role":' || to_json(e.role) END,
    CASE WHEN e.evidence_id IS NOT NULL THEN '"evidence_id":' || to_json(e.evidence_id) END,
    CASE WHEN e.claim IS NOT NULL THEN '"claim":' || to_json(e.claim) END,
    CASE WHEN e.grade IS NOT NULL THEN '"grade":' || to_json(e.grade) END,
    CASE WHEN e.path IS NOT NULL THEN '"path":' || to_json(e.path) END,
    CASE WHEN e.terminal IS NOT NULL THEN '"terminal":' || to_json(e.terminal) END,
    CASE WHEN e.reason IS NOT NULL THEN '"reason":' || to_json(e.reason) END,
    CASE WHEN e.chunks_committed IS NOT NULL THEN '"chunks_committed":' || to_json(e.chunks_committed) END,
    CASE WHEN e.chunks_rejected IS NOT NULL THEN '"chunks_rejected":' || to_json(e.chunks_rejected) END,
    CASE WHEN e.disclosed_gaps IS NOT NULL THEN '"disclosed_gaps":' || to_json(e.disclosed_gaps) END,
    CASE WHEN e.degradations IS NOT NULL THEN '"degradations":' || to_json(e.degradations) END) || '}') AS line
 FROM {{events}} e)

-- name: export.jsonl
-- The lines are already JSON: written as they are, one per line, unquoted.
COPY {{lines}} TO {{path}} (FORMAT csv, HEADER false, QUOTE '', ESCAPE '', DELIMITER E'\t');

-- name: export.read_partitioned
-- Reads a partitioned export back into an empty events table: the same
-- metric SQL then runs unchanged ({{path}} is the export directory's events
-- glob, quoted). Engines beyond one machine do the same over the partitions.
INSERT INTO events BY NAME
SELECT 1 AS file_id,
       * EXCLUDE (ts, enqueued_at, started_at, ended_at),
       ts::TIMESTAMPTZ AS ts, enqueued_at::TIMESTAMPTZ AS enqueued_at,
       started_at::TIMESTAMPTZ AS started_at, ended_at::TIMESTAMPTZ AS ended_at
FROM read_parquet({{path}}, hive_partitioning = true);
