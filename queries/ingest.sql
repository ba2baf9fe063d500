-- Ingest: turn JSON objects into typed, validated rows.
--
-- Both load paths feed the same statement (ingest.typed): the fast path reads
-- the file with DuckDB's own NDJSON reader, the line-precise path reads the
-- lines that Go split and numbered. {{source}} is replaced by the caller with
-- a relation that has the columns (line_no BIGINT, raw JSON).
--
-- Choices where the contract is silent, all tested in ingest:
-- * Coercion follows DuckDB's JSON casts: a number given for a string field is
--   kept as its text; a string holding a number is accepted for an integer.
--   A value that cannot be converted (e.g. "abc" for an integer, a string for
--   an object) rejects the line naming the field.
-- * JSON null for an optional field means absent.
-- * Enum fields, optional or not, must hold one of the contract's values.
-- * Timestamps must be RFC 3339 with a zone (Z or ±hh:mm); they are stored as
--   UTC instants with microsecond precision.

-- name: ingest.check
-- One row per candidate line with its typed fields and the first rule it
-- breaks (reason), or NULL for a valid event.
CREATE OR REPLACE TEMP TABLE ingest_checked AS
WITH src AS (
    SELECT line_no, raw, text, json_keys(raw) AS k,
           json_transform(raw, '{
             "type":"VARCHAR","run_id":"VARCHAR","ts":"VARCHAR","seq":"BIGINT","schema_version":"BIGINT",
             "suite":"VARCHAR","scenario":"VARCHAR",
             "fault":{"class":"VARCHAR","kind":"VARCHAR","target_tool":"VARCHAR","expect":{"action":"VARCHAR","terminal":"VARCHAR"}},
             "agent":{"name":"VARCHAR","version":"VARCHAR"},
             "client_message_id":"VARCHAR","caused_by":{"run_id":"VARCHAR","cause":"VARCHAR"},
             "task":{"kind":"VARCHAR","requires_current_evidence":"BOOLEAN","evidence_required":"BIGINT","min_grade":"VARCHAR"},
             "deadline_ms":"BIGINT","retry_budget":"BIGINT",
             "stage_id":"VARCHAR","stage":"VARCHAR","attempt":"BIGINT",
             "enqueued_at":"VARCHAR","started_at":"VARCHAR","ended_at":"VARCHAR",
             "outcome":"VARCHAR","plan_valid":"BOOLEAN",
             "failure":{"category":"VARCHAR","retryable":"BOOLEAN","reason":"VARCHAR"},
             "visible_chars":"BIGINT","budget_ms":"BIGINT",
             "call_id":"VARCHAR","action_id":"VARCHAR","recovery":"VARCHAR","recovery_of":"VARCHAR",
             "tool":"VARCHAR","tool_version":"VARCHAR","tool_schema":"VARCHAR","args_digest":"VARCHAR",
             "side_effect":"VARCHAR","idempotency_key":"VARCHAR","status":"VARCHAR",
             "error":{"code":"VARCHAR","category":"VARCHAR","retryable":"BOOLEAN","retry_after_ms":"BIGINT","side_effect_state":"VARCHAR","message":"VARCHAR"},
             "circuit":"VARCHAR","source":{"name":"VARCHAR","grade":"VARCHAR","fallback":"BOOLEAN"},
             "evidence_ids":["VARCHAR"],"completed_scope":["VARCHAR"],"missing_scope":["VARCHAR"],
             "role":"VARCHAR","evidence_id":"VARCHAR","claim":"VARCHAR","grade":"VARCHAR","path":"VARCHAR",
             "terminal":"VARCHAR","reason":"VARCHAR","chunks_committed":"BIGINT","chunks_rejected":"BIGINT",
             "disclosed_gaps":"BOOLEAN","degradations":["VARCHAR"]}') AS e
    FROM {{source}}
), typed AS (
    SELECT line_no, raw, text, k, e,
           try_cast(e.ts AS TIMESTAMPTZ) AS ts_v,
           try_cast(e.enqueued_at AS TIMESTAMPTZ) AS enq_v,
           try_cast(e.started_at AS TIMESTAMPTZ) AS start_v,
           try_cast(e.ended_at AS TIMESTAMPTZ) AS end_v
    FROM src
), fielded AS (
    SELECT *,
    -- A field that is present but came out NULL was null or not convertible;
    -- bad_field names the first such typed field.
    CASE
      WHEN e.seq IS NULL AND list_contains(k, 'seq') AND json_type(raw, '$.seq') <> 'NULL' THEN 'seq: expected integer'
      WHEN e.schema_version IS NULL AND list_contains(k, 'schema_version') AND json_type(raw, '$.schema_version') <> 'NULL' THEN 'schema_version: expected integer'
      WHEN e.fault IS NULL AND list_contains(k, 'fault') AND json_type(raw, '$.fault') <> 'NULL' THEN 'fault: expected object'
      WHEN e.agent IS NULL AND list_contains(k, 'agent') AND json_type(raw, '$.agent') <> 'NULL' THEN 'agent: expected object'
      WHEN e.caused_by IS NULL AND list_contains(k, 'caused_by') AND json_type(raw, '$.caused_by') <> 'NULL' THEN 'caused_by: expected object'
      WHEN e.task IS NULL AND list_contains(k, 'task') AND json_type(raw, '$.task') <> 'NULL' THEN 'task: expected object'
      WHEN e.deadline_ms IS NULL AND list_contains(k, 'deadline_ms') AND json_type(raw, '$.deadline_ms') <> 'NULL' THEN 'deadline_ms: expected integer'
      WHEN e.retry_budget IS NULL AND list_contains(k, 'retry_budget') AND json_type(raw, '$.retry_budget') <> 'NULL' THEN 'retry_budget: expected integer'
      WHEN e.attempt IS NULL AND list_contains(k, 'attempt') AND json_type(raw, '$.attempt') <> 'NULL' THEN 'attempt: expected integer'
      WHEN e.plan_valid IS NULL AND list_contains(k, 'plan_valid') AND json_type(raw, '$.plan_valid') <> 'NULL' THEN 'plan_valid: expected boolean'
      WHEN e.failure IS NULL AND list_contains(k, 'failure') AND json_type(raw, '$.failure') <> 'NULL' THEN 'failure: expected object'
      WHEN e.visible_chars IS NULL AND list_contains(k, 'visible_chars') AND json_type(raw, '$.visible_chars') <> 'NULL' THEN 'visible_chars: expected integer'
      WHEN e.budget_ms IS NULL AND list_contains(k, 'budget_ms') AND json_type(raw, '$.budget_ms') <> 'NULL' THEN 'budget_ms: expected integer'
      WHEN e.error IS NULL AND list_contains(k, 'error') AND json_type(raw, '$.error') <> 'NULL' THEN 'error: expected object'
      WHEN e.source IS NULL AND list_contains(k, 'source') AND json_type(raw, '$.source') <> 'NULL' THEN 'source: expected object'
      WHEN e.evidence_ids IS NULL AND list_contains(k, 'evidence_ids') AND json_type(raw, '$.evidence_ids') <> 'NULL' THEN 'evidence_ids: expected array'
      WHEN e.completed_scope IS NULL AND list_contains(k, 'completed_scope') AND json_type(raw, '$.completed_scope') <> 'NULL' THEN 'completed_scope: expected array'
      WHEN e.missing_scope IS NULL AND list_contains(k, 'missing_scope') AND json_type(raw, '$.missing_scope') <> 'NULL' THEN 'missing_scope: expected array'
      WHEN e.chunks_committed IS NULL AND list_contains(k, 'chunks_committed') AND json_type(raw, '$.chunks_committed') <> 'NULL' THEN 'chunks_committed: expected integer'
      WHEN e.chunks_rejected IS NULL AND list_contains(k, 'chunks_rejected') AND json_type(raw, '$.chunks_rejected') <> 'NULL' THEN 'chunks_rejected: expected integer'
      WHEN e.disclosed_gaps IS NULL AND list_contains(k, 'disclosed_gaps') AND json_type(raw, '$.disclosed_gaps') <> 'NULL' THEN 'disclosed_gaps: expected boolean'
      WHEN e.degradations IS NULL AND list_contains(k, 'degradations') AND json_type(raw, '$.degradations') <> 'NULL' THEN 'degradations: expected array'
    END AS bad_field
    FROM typed
)
-- The order of the rules is the order a person would fix a line in: shape,
-- identity, time, then the fields of its type.
SELECT line_no, text, e, k, ts_v, enq_v, start_v, end_v, raw,
  CASE
    WHEN e.type IS NULL THEN 'missing field type'
    WHEN e.type NOT IN ('run','stage','tool_call','model_call','evidence','terminal') THEN 'unknown type'
    WHEN e.run_id IS NULL OR e.run_id = '' THEN 'missing field run_id'
    WHEN e.ts IS NULL THEN 'missing field ts'
    WHEN ts_v IS NULL OR NOT regexp_full_match(e.ts, '\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d:\d\d(\.\d+)?([Zz]|[+-]\d\d:\d\d)') THEN 'invalid timestamp ts'
    WHEN bad_field IS NOT NULL THEN 'wrong type for field ' || bad_field
    WHEN e.enqueued_at IS NOT NULL AND (enq_v IS NULL OR NOT regexp_full_match(e.enqueued_at, '\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d:\d\d(\.\d+)?([Zz]|[+-]\d\d:\d\d)')) THEN 'invalid timestamp enqueued_at'
    WHEN e.started_at IS NOT NULL AND (start_v IS NULL OR NOT regexp_full_match(e.started_at, '\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d:\d\d(\.\d+)?([Zz]|[+-]\d\d:\d\d)')) THEN 'invalid timestamp started_at'
    WHEN e.ended_at IS NOT NULL AND (end_v IS NULL OR NOT regexp_full_match(e.ended_at, '\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d:\d\d(\.\d+)?([Zz]|[+-]\d\d:\d\d)')) THEN 'invalid timestamp ended_at'
    -- run
    WHEN e.type = 'run' AND e.suite IS NULL THEN 'missing field suite'
    WHEN e.type = 'run' AND e.started_at IS NULL THEN 'missing field started_at'
    WHEN e.type = 'run' AND e.fault.class IS NOT NULL AND e.fault.class NOT IN ('parameter','network','service','resource','permission','strategy','state') THEN 'invalid value for fault.class'
    WHEN e.type = 'run' AND e.fault.expect.action IS NOT NULL AND e.fault.expect.action NOT IN ('retry','fix_args','backoff','switch_source','switch_tool','back_to_search','query_status','degrade','stop') THEN 'invalid value for fault.expect.action'
    WHEN e.type = 'run' AND e.fault.expect.terminal IS NOT NULL AND e.fault.expect.terminal NOT IN ('completed','partial','failed','cancelled') THEN 'invalid value for fault.expect.terminal'
    WHEN e.type = 'run' AND e.caused_by.cause IS NOT NULL AND e.caused_by.cause NOT IN ('user_followup','explicit_retry','auto_recovery') THEN 'invalid value for caused_by.cause'
    WHEN e.type = 'run' AND e.task.min_grade IS NOT NULL AND e.task.min_grade NOT IN ('primary','secondary','reprint','cache') THEN 'invalid value for task.min_grade'
    -- stage
    WHEN e.type = 'stage' AND e.stage_id IS NULL THEN 'missing field stage_id'
    WHEN e.type = 'stage' AND e.stage IS NULL THEN 'missing field stage'
    WHEN e.type = 'stage' AND e.stage NOT IN ('planning','evidence','generation','review','delivery') THEN 'invalid value for stage'
    WHEN e.type = 'stage' AND e.started_at IS NULL THEN 'missing field started_at'
    WHEN e.type = 'stage' AND e.ended_at IS NULL THEN 'missing field ended_at'
    WHEN e.type = 'stage' AND e.outcome IS NULL THEN 'missing field outcome'
    WHEN e.type = 'stage' AND e.outcome NOT IN ('ok','failed','timeout','empty','interrupted','cancelled') THEN 'invalid value for outcome'
    -- tool_call
    WHEN e.type = 'tool_call' AND e.call_id IS NULL THEN 'missing field call_id'
    WHEN e.type = 'tool_call' AND e.action_id IS NULL THEN 'missing field action_id'
    WHEN e.type = 'tool_call' AND e.tool IS NULL THEN 'missing field tool'
    WHEN e.type = 'tool_call' AND e.started_at IS NULL THEN 'missing field started_at'
    WHEN e.type = 'tool_call' AND e.ended_at IS NULL THEN 'missing field ended_at'
    WHEN e.type = 'tool_call' AND e.status IS NULL THEN 'missing field status'
    WHEN e.type = 'tool_call' AND e.status NOT IN ('ok','partial','error','fast_fail') THEN 'invalid value for status'
    WHEN e.type = 'tool_call' AND e.recovery IS NOT NULL AND e.recovery NOT IN ('retry','fix_args','switch_source','switch_tool','back_to_search','query_status') THEN 'invalid value for recovery'
    WHEN e.type = 'tool_call' AND e.side_effect IS NOT NULL AND e.side_effect NOT IN ('none','idempotent','write') THEN 'invalid value for side_effect'
    WHEN e.type = 'tool_call' AND e.circuit IS NOT NULL AND e.circuit NOT IN ('closed','open','half_open') THEN 'invalid value for circuit'
    WHEN e.type = 'tool_call' AND e.error.category IS NOT NULL AND e.error.category NOT IN ('VALIDATION','AUTHN','AUTHZ','RATE_LIMIT','TRANSIENT','TIMEOUT','UNAVAILABLE','NOT_FOUND','EMPTY_CONTENT','SAFETY','CONFLICT','PARSE','UNKNOWN_OUTCOME','INTERNAL') THEN 'invalid value for error.category'
    WHEN e.type = 'tool_call' AND e.error.side_effect_state IS NOT NULL AND e.error.side_effect_state NOT IN ('none','committed','partial','unknown') THEN 'invalid value for error.side_effect_state'
    WHEN e.type = 'tool_call' AND e.source.grade IS NOT NULL AND e.source.grade NOT IN ('primary','secondary','reprint','cache') THEN 'invalid value for source.grade'
    -- model_call
    WHEN e.type = 'model_call' AND e.call_id IS NULL THEN 'missing field call_id'
    WHEN e.type = 'model_call' AND e.role IS NULL THEN 'missing field role'
    WHEN e.type = 'model_call' AND e.role NOT IN ('planner','answer','reviewer') THEN 'invalid value for role'
    WHEN e.type = 'model_call' AND e.outcome IS NOT NULL AND e.outcome NOT IN ('ok','failed','timeout','empty') THEN 'invalid value for outcome'
    -- evidence
    WHEN e.type = 'evidence' AND e.evidence_id IS NULL THEN 'missing field evidence_id'
    WHEN e.type = 'evidence' AND e.claim IS NULL THEN 'missing field claim'
    WHEN e.type = 'evidence' AND e.grade IS NULL THEN 'missing field grade'
    WHEN e.type = 'evidence' AND e.grade NOT IN ('primary','secondary','reprint','cache') THEN 'invalid value for grade'
    WHEN e.type = 'evidence' AND e.path IS NOT NULL AND e.path NOT IN ('direct','degraded') THEN 'invalid value for path'
    WHEN e.type = 'evidence' AND e.status IS NULL THEN 'missing field status'
    WHEN e.type = 'evidence' AND e.status NOT IN ('confirmed','candidate','unsupported') THEN 'invalid value for status'
    -- terminal
    WHEN e.type = 'terminal' AND e.terminal IS NULL THEN 'missing field terminal'
    WHEN e.type = 'terminal' AND e.terminal NOT IN ('completed','partial','failed','cancelled') THEN 'invalid value for terminal'
    WHEN e.type = 'terminal' AND e.reason IS NOT NULL AND e.reason NOT IN ('ok','planning_failed','evidence_missing','tool_unavailable','stream_interrupted','empty_completion','budget_exhausted','deadline_exceeded','user_cancelled','safety_refusal') THEN 'invalid value for reason'
    WHEN e.type = 'terminal' AND e.degradations IS NOT NULL AND NOT list_bool_and(list_transform(e.degradations, d -> d IN ('tool','evidence','delivery','safety'))) THEN 'invalid value in degradations'
  END AS reason
FROM fielded;

-- name: ingest.count_checked
SELECT count(*) AS rows, count(reason) AS bad FROM ingest_checked;

-- name: ingest.insert_events
-- extra keeps the raw object only when it names a field the contract does not.
INSERT INTO events
SELECT ?, e.type, e.run_id, ts_v, e.seq, e.schema_version, e.suite, e.scenario, e.fault, e.agent,
       e.client_message_id, e.caused_by, e.task, e.deadline_ms, e.retry_budget, e.stage_id, e.stage,
       e.attempt, enq_v, start_v, end_v, e.outcome, e.plan_valid, e.failure, e.visible_chars,
       e.budget_ms, e.call_id, e.action_id, e.recovery, e.recovery_of, e.tool, e.tool_version,
       e.tool_schema, e.args_digest, e.side_effect, e.idempotency_key, e.status, e.error, e.circuit,
       e.source, e.evidence_ids, e.completed_scope, e.missing_scope, e.role, e.evidence_id, e.claim,
       e.grade, e.path, e.terminal, e.reason, e.chunks_committed, e.chunks_rejected,
       e.disclosed_gaps, e.degradations,
       CASE WHEN len(list_filter(k, x -> x NOT IN ('type','run_id','ts','seq','schema_version','suite','scenario','fault','agent','client_message_id','caused_by','task','deadline_ms','retry_budget','stage_id','stage','attempt','enqueued_at','started_at','ended_at','outcome','plan_valid','failure','visible_chars','budget_ms','call_id','action_id','recovery','recovery_of','tool','tool_version','tool_schema','args_digest','side_effect','idempotency_key','status','error','circuit','source','evidence_ids','completed_scope','missing_scope','role','evidence_id','claim','grade','path','terminal','reason','chunks_committed','chunks_rejected','disclosed_gaps','degradations'))) > 0
            THEN raw END
FROM ingest_checked WHERE reason IS NULL;

-- name: ingest.insert_rejected_checked
INSERT INTO rejected_lines
SELECT ?, ?, line_no, reason, left(text, 1024) FROM ingest_checked WHERE reason IS NOT NULL;

-- name: ingest.fast_source
-- {{path}} is a quoted SQL literal. No ignore_errors: a malformed line fails
-- the whole read and sends the file down the line-precise path.
(SELECT NULL::BIGINT AS line_no, json AS raw, NULL::VARCHAR AS text
 FROM read_ndjson_objects({{path}}, format = 'newline_delimited', maximum_object_size = 16777216))

-- name: ingest.lines_table
CREATE OR REPLACE TEMP TABLE ingest_lines (line_no BIGINT, text VARCHAR);

-- name: ingest.lines_source
(SELECT line_no, text::JSON AS raw, text FROM ingest_lines
 WHERE CASE WHEN json_valid(text) THEN json_type(text) = 'OBJECT' ELSE false END)

-- name: ingest.insert_rejected_lines
-- Lines that are not JSON objects at all; the rest go on to ingest.typed.
INSERT INTO rejected_lines
SELECT ?, ?, line_no,
       CASE WHEN NOT json_valid(text) THEN 'malformed json' ELSE 'not a JSON object' END,
       left(text, 1024)
FROM ingest_lines
WHERE CASE WHEN json_valid(text) THEN json_type(text) <> 'OBJECT' ELSE true END;

-- name: ingest.drop_temp
DROP TABLE IF EXISTS ingest_checked; DROP TABLE IF EXISTS ingest_lines;
