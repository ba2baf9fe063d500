-- Ingest: turn JSON objects (or typed Arrow columns) into validated rows.
--
-- Validation is two queries: ingest.json_typed types a JSON object per line
-- (json_transform, and json_type of every contract path for the per-field
-- type rules), and ingest.checked applies the contract's rules to any typed
-- relation of the same columns; the Arrow path (ingest/arrow_typed.go)
-- builds that relation from typed columns instead, so every format is judged
-- by the same rules. For JSON Lines, the fast path reads the file with
-- DuckDB's own NDJSON reader and inserts straight into events, failing on
-- the first rejected row; the line-precise path reads the lines that Go
-- split and numbered, chunk by chunk, into ingest_checked. The source
-- placeholder of ingest.json_typed is a relation that has the columns
-- (line_no BIGINT, raw JSON, text VARCHAR, file_id BIGINT); file_id is set
-- only by a batch of small files read in one statement (ingest/batch.go).
--
-- Choices where the contract is silent, all tested in ingest:
-- * A field must hold the JSON type the contract gives it, with two
--   coercions: a number given for a string field is kept as its text, and a
--   string holding an integer ("12") is accepted for an integer field. An
--   integer field also takes an integral number written with a fraction or
--   exponent (2.0, 1e3). Anything else (a fraction, a boolean, "abc" for an
--   integer; an object, array or boolean for a string; anything but true or
--   false for a boolean; a non-object for an object; a non-array, or an
--   element that is not a string or number, for an array of strings) rejects
--   the line naming the field, nested fields by their dotted path.
-- * JSON null for an optional field means absent.
-- * Enum fields, optional or not, must hold one of the contract's values.
-- * Timestamps must be RFC 3339 with a zone (Z or ±hh:mm; T, t or a space
--   between date and time); they are stored as UTC instants with microsecond
--   precision (further digits are truncated).
-- * Unknown fields, top-level or inside a contract object (error, source,
--   ...), keep the whole line in events.extra.
-- * DuckDB's JSON parser is lenient where RFC 8259 is not: it accepts a
--   trailing comma and NaN/Infinity. Such lines are accepted on both paths
--   alike.

-- name: ingest.json_typed
-- One row per candidate JSON line (the source placeholder: line_no BIGINT,
-- raw JSON, text VARCHAR, file_id BIGINT) with its typed fields (e, the same struct for every format),
-- the JSON type of every contract field (jt), the timestamps as instants
-- and the first field whose JSON type is not accepted (bad_field).
WITH src AS (
    SELECT line_no, raw, text, file_id,
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
             "disclosed_gaps":"BOOLEAN","degradations":["VARCHAR"]}') AS e,
           -- jt[i] is the JSON type of the i-th path (NULL when absent); the
           -- bad_field rules below index it in this order. TestFieldTypes
           -- checks every field.
           json_type(raw, [
             '$.type', '$.run_id', '$.ts', '$.seq', '$.schema_version', '$.suite',
             '$.scenario', '$.fault', '$.fault.class', '$.fault.kind', '$.fault.target_tool', '$.fault.expect',
             '$.fault.expect.action', '$.fault.expect.terminal', '$.agent', '$.agent.name', '$.agent.version', '$.client_message_id',
             '$.caused_by', '$.caused_by.run_id', '$.caused_by.cause', '$.task', '$.task.kind', '$.task.requires_current_evidence',
             '$.task.evidence_required', '$.task.min_grade', '$.deadline_ms', '$.retry_budget', '$.stage_id', '$.stage',
             '$.attempt', '$.enqueued_at', '$.started_at', '$.ended_at', '$.outcome', '$.plan_valid',
             '$.failure', '$.failure.category', '$.failure.retryable', '$.failure.reason', '$.visible_chars', '$.budget_ms',
             '$.call_id', '$.action_id', '$.recovery', '$.recovery_of', '$.tool', '$.tool_version',
             '$.tool_schema', '$.args_digest', '$.side_effect', '$.idempotency_key', '$.status', '$.error',
             '$.error.code', '$.error.category', '$.error.retryable', '$.error.retry_after_ms', '$.error.side_effect_state', '$.error.message',
             '$.circuit', '$.source', '$.source.name', '$.source.grade', '$.source.fallback', '$.evidence_ids',
             '$.completed_scope', '$.missing_scope', '$.role', '$.evidence_id', '$.claim', '$.grade',
             '$.path', '$.terminal', '$.reason', '$.chunks_committed', '$.chunks_rejected', '$.disclosed_gaps',
             '$.degradations'
           ]) AS jt
    FROM {{source}}
), typed AS (
    -- DuckDB's cast wants T and Z in capitals; RFC 3339 allows lower case.
    SELECT *,
           coalesce(try_cast(e.ts AS TIMESTAMPTZ), try_cast(upper(e.ts) AS TIMESTAMPTZ)) AS ts_v,
           coalesce(try_cast(e.enqueued_at AS TIMESTAMPTZ), try_cast(upper(e.enqueued_at) AS TIMESTAMPTZ)) AS enq_v,
           coalesce(try_cast(e.started_at AS TIMESTAMPTZ), try_cast(upper(e.started_at) AS TIMESTAMPTZ)) AS start_v,
           coalesce(try_cast(e.ended_at AS TIMESTAMPTZ), try_cast(upper(e.ended_at) AS TIMESTAMPTZ)) AS end_v
    FROM src
), fielded AS (
    SELECT *,
    -- The first field, in contract order, whose JSON type is not accepted
    -- (see the header). type and the timestamps have rules of their own.
    CASE
      WHEN jt[2] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'run_id: expected string'
      WHEN jt[4] <> 'NULL' AND (e.seq IS NULL OR jt[4] NOT IN ('BIGINT','UBIGINT','DOUBLE','VARCHAR') OR (jt[4] = 'DOUBLE' AND json_extract(raw, '$.seq')::DOUBLE <> e.seq) OR (jt[4] = 'VARCHAR' AND NOT regexp_full_match(json_extract_string(raw, '$.seq'), '[+-]?\d+'))) THEN 'seq: expected integer'
      WHEN jt[5] <> 'NULL' AND (e.schema_version IS NULL OR jt[5] NOT IN ('BIGINT','UBIGINT','DOUBLE','VARCHAR') OR (jt[5] = 'DOUBLE' AND json_extract(raw, '$.schema_version')::DOUBLE <> e.schema_version) OR (jt[5] = 'VARCHAR' AND NOT regexp_full_match(json_extract_string(raw, '$.schema_version'), '[+-]?\d+'))) THEN 'schema_version: expected integer'
      WHEN jt[6] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'suite: expected string'
      WHEN jt[7] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'scenario: expected string'
      WHEN jt[8] NOT IN ('OBJECT','NULL') THEN 'fault: expected object'
      WHEN jt[9] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'fault.class: expected string'
      WHEN jt[10] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'fault.kind: expected string'
      WHEN jt[11] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'fault.target_tool: expected string'
      WHEN jt[12] NOT IN ('OBJECT','NULL') THEN 'fault.expect: expected object'
      WHEN jt[13] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'fault.expect.action: expected string'
      WHEN jt[14] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'fault.expect.terminal: expected string'
      WHEN jt[15] NOT IN ('OBJECT','NULL') THEN 'agent: expected object'
      WHEN jt[16] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'agent.name: expected string'
      WHEN jt[17] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'agent.version: expected string'
      WHEN jt[18] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'client_message_id: expected string'
      WHEN jt[19] NOT IN ('OBJECT','NULL') THEN 'caused_by: expected object'
      WHEN jt[20] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'caused_by.run_id: expected string'
      WHEN jt[21] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'caused_by.cause: expected string'
      WHEN jt[22] NOT IN ('OBJECT','NULL') THEN 'task: expected object'
      WHEN jt[23] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'task.kind: expected string'
      WHEN jt[24] NOT IN ('BOOLEAN','NULL') THEN 'task.requires_current_evidence: expected boolean'
      WHEN jt[25] <> 'NULL' AND (e.task.evidence_required IS NULL OR jt[25] NOT IN ('BIGINT','UBIGINT','DOUBLE','VARCHAR') OR (jt[25] = 'DOUBLE' AND json_extract(raw, '$.task.evidence_required')::DOUBLE <> e.task.evidence_required) OR (jt[25] = 'VARCHAR' AND NOT regexp_full_match(json_extract_string(raw, '$.task.evidence_required'), '[+-]?\d+'))) THEN 'task.evidence_required: expected integer'
      WHEN jt[26] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'task.min_grade: expected string'
      WHEN jt[27] <> 'NULL' AND (e.deadline_ms IS NULL OR jt[27] NOT IN ('BIGINT','UBIGINT','DOUBLE','VARCHAR') OR (jt[27] = 'DOUBLE' AND json_extract(raw, '$.deadline_ms')::DOUBLE <> e.deadline_ms) OR (jt[27] = 'VARCHAR' AND NOT regexp_full_match(json_extract_string(raw, '$.deadline_ms'), '[+-]?\d+'))) THEN 'deadline_ms: expected integer'
      WHEN jt[28] <> 'NULL' AND (e.retry_budget IS NULL OR jt[28] NOT IN ('BIGINT','UBIGINT','DOUBLE','VARCHAR') OR (jt[28] = 'DOUBLE' AND json_extract(raw, '$.retry_budget')::DOUBLE <> e.retry_budget) OR (jt[28] = 'VARCHAR' AND NOT regexp_full_match(json_extract_string(raw, '$.retry_budget'), '[+-]?\d+'))) THEN 'retry_budget: expected integer'
      WHEN jt[29] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'stage_id: expected string'
      WHEN jt[30] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'stage: expected string'
      WHEN jt[31] <> 'NULL' AND (e.attempt IS NULL OR jt[31] NOT IN ('BIGINT','UBIGINT','DOUBLE','VARCHAR') OR (jt[31] = 'DOUBLE' AND json_extract(raw, '$.attempt')::DOUBLE <> e.attempt) OR (jt[31] = 'VARCHAR' AND NOT regexp_full_match(json_extract_string(raw, '$.attempt'), '[+-]?\d+'))) THEN 'attempt: expected integer'
      WHEN jt[35] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'outcome: expected string'
      WHEN jt[36] NOT IN ('BOOLEAN','NULL') THEN 'plan_valid: expected boolean'
      WHEN jt[37] NOT IN ('OBJECT','NULL') THEN 'failure: expected object'
      WHEN jt[38] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'failure.category: expected string'
      WHEN jt[39] NOT IN ('BOOLEAN','NULL') THEN 'failure.retryable: expected boolean'
      WHEN jt[40] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'failure.reason: expected string'
      WHEN jt[41] <> 'NULL' AND (e.visible_chars IS NULL OR jt[41] NOT IN ('BIGINT','UBIGINT','DOUBLE','VARCHAR') OR (jt[41] = 'DOUBLE' AND json_extract(raw, '$.visible_chars')::DOUBLE <> e.visible_chars) OR (jt[41] = 'VARCHAR' AND NOT regexp_full_match(json_extract_string(raw, '$.visible_chars'), '[+-]?\d+'))) THEN 'visible_chars: expected integer'
      WHEN jt[42] <> 'NULL' AND (e.budget_ms IS NULL OR jt[42] NOT IN ('BIGINT','UBIGINT','DOUBLE','VARCHAR') OR (jt[42] = 'DOUBLE' AND json_extract(raw, '$.budget_ms')::DOUBLE <> e.budget_ms) OR (jt[42] = 'VARCHAR' AND NOT regexp_full_match(json_extract_string(raw, '$.budget_ms'), '[+-]?\d+'))) THEN 'budget_ms: expected integer'
      WHEN jt[43] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'call_id: expected string'
      WHEN jt[44] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'action_id: expected string'
      WHEN jt[45] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'recovery: expected string'
      WHEN jt[46] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'recovery_of: expected string'
      WHEN jt[47] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'tool: expected string'
      WHEN jt[48] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'tool_version: expected string'
      WHEN jt[49] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'tool_schema: expected string'
      WHEN jt[50] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'args_digest: expected string'
      WHEN jt[51] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'side_effect: expected string'
      WHEN jt[52] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'idempotency_key: expected string'
      WHEN jt[53] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'status: expected string'
      WHEN jt[54] NOT IN ('OBJECT','NULL') THEN 'error: expected object'
      WHEN jt[55] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'error.code: expected string'
      WHEN jt[56] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'error.category: expected string'
      WHEN jt[57] NOT IN ('BOOLEAN','NULL') THEN 'error.retryable: expected boolean'
      WHEN jt[58] <> 'NULL' AND (e.error.retry_after_ms IS NULL OR jt[58] NOT IN ('BIGINT','UBIGINT','DOUBLE','VARCHAR') OR (jt[58] = 'DOUBLE' AND json_extract(raw, '$.error.retry_after_ms')::DOUBLE <> e.error.retry_after_ms) OR (jt[58] = 'VARCHAR' AND NOT regexp_full_match(json_extract_string(raw, '$.error.retry_after_ms'), '[+-]?\d+'))) THEN 'error.retry_after_ms: expected integer'
      WHEN jt[59] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'error.side_effect_state: expected string'
      WHEN jt[60] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'error.message: expected string'
      WHEN jt[61] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'circuit: expected string'
      WHEN jt[62] NOT IN ('OBJECT','NULL') THEN 'source: expected object'
      WHEN jt[63] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'source.name: expected string'
      WHEN jt[64] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'source.grade: expected string'
      WHEN jt[65] NOT IN ('BOOLEAN','NULL') THEN 'source.fallback: expected boolean'
      WHEN jt[66] NOT IN ('ARRAY','NULL') OR (jt[66] = 'ARRAY' AND NOT coalesce(list_bool_and(list_transform(json_type(raw, '$.evidence_ids[*]'), x -> x IN ('VARCHAR','BIGINT','UBIGINT','DOUBLE'))), true)) THEN 'evidence_ids: expected array of strings'
      WHEN jt[67] NOT IN ('ARRAY','NULL') OR (jt[67] = 'ARRAY' AND NOT coalesce(list_bool_and(list_transform(json_type(raw, '$.completed_scope[*]'), x -> x IN ('VARCHAR','BIGINT','UBIGINT','DOUBLE'))), true)) THEN 'completed_scope: expected array of strings'
      WHEN jt[68] NOT IN ('ARRAY','NULL') OR (jt[68] = 'ARRAY' AND NOT coalesce(list_bool_and(list_transform(json_type(raw, '$.missing_scope[*]'), x -> x IN ('VARCHAR','BIGINT','UBIGINT','DOUBLE'))), true)) THEN 'missing_scope: expected array of strings'
      WHEN jt[69] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'role: expected string'
      WHEN jt[70] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'evidence_id: expected string'
      WHEN jt[71] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'claim: expected string'
      WHEN jt[72] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'grade: expected string'
      WHEN jt[73] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'path: expected string'
      WHEN jt[74] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'terminal: expected string'
      WHEN jt[75] IN ('BOOLEAN','OBJECT','ARRAY') THEN 'reason: expected string'
      WHEN jt[76] <> 'NULL' AND (e.chunks_committed IS NULL OR jt[76] NOT IN ('BIGINT','UBIGINT','DOUBLE','VARCHAR') OR (jt[76] = 'DOUBLE' AND json_extract(raw, '$.chunks_committed')::DOUBLE <> e.chunks_committed) OR (jt[76] = 'VARCHAR' AND NOT regexp_full_match(json_extract_string(raw, '$.chunks_committed'), '[+-]?\d+'))) THEN 'chunks_committed: expected integer'
      WHEN jt[77] <> 'NULL' AND (e.chunks_rejected IS NULL OR jt[77] NOT IN ('BIGINT','UBIGINT','DOUBLE','VARCHAR') OR (jt[77] = 'DOUBLE' AND json_extract(raw, '$.chunks_rejected')::DOUBLE <> e.chunks_rejected) OR (jt[77] = 'VARCHAR' AND NOT regexp_full_match(json_extract_string(raw, '$.chunks_rejected'), '[+-]?\d+'))) THEN 'chunks_rejected: expected integer'
      WHEN jt[78] NOT IN ('BOOLEAN','NULL') THEN 'disclosed_gaps: expected boolean'
      WHEN jt[79] NOT IN ('ARRAY','NULL') OR (jt[79] = 'ARRAY' AND NOT coalesce(list_bool_and(list_transform(json_type(raw, '$.degradations[*]'), x -> x IN ('VARCHAR','BIGINT','UBIGINT','DOUBLE'))), true)) THEN 'degradations: expected array of strings'
    END AS bad_field
    FROM typed
)
SELECT line_no, text, raw, file_id, e, jt, ts_v, enq_v, start_v, end_v, bad_field FROM fielded

-- name: ingest.checked
-- The contract's rules over a typed relation (the typed placeholder:
-- ingest.json_typed for JSON lines, the typed Arrow columns of
-- ingest/arrow_typed.go), the same SQL for every format: every column of the
-- relation and the first rule a row breaks (reason), or NULL for a valid
-- event.
-- The order of the rules is the order a person would fix a line in: shape,
-- identity, time, then the fields of its type.
SELECT *,
  CASE
    WHEN e.type IS NULL THEN 'missing field type'
    WHEN e.type NOT IN ('run','stage','tool_call','model_call','evidence','terminal') THEN 'unknown type'
    WHEN e.run_id IS NULL OR e.run_id = '' THEN 'missing field run_id'
    WHEN e.ts IS NULL THEN 'missing field ts'
    WHEN ts_v IS NULL OR NOT regexp_full_match(e.ts, '\d{4}-\d\d-\d\d[Tt ]([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)') THEN 'invalid timestamp ts'
    WHEN bad_field IS NOT NULL THEN 'wrong type for field ' || bad_field
    WHEN e.enqueued_at IS NOT NULL AND (enq_v IS NULL OR NOT regexp_full_match(e.enqueued_at, '\d{4}-\d\d-\d\d[Tt ]([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)')) THEN 'invalid timestamp enqueued_at'
    WHEN e.started_at IS NOT NULL AND (start_v IS NULL OR NOT regexp_full_match(e.started_at, '\d{4}-\d\d-\d\d[Tt ]([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)')) THEN 'invalid timestamp started_at'
    WHEN e.ended_at IS NOT NULL AND (end_v IS NULL OR NOT regexp_full_match(e.ended_at, '\d{4}-\d\d-\d\d[Tt ]([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)')) THEN 'invalid timestamp ended_at'
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
FROM ({{typed}})

-- name: ingest.check
-- The line-precise path keeps every checked line, for events and rejections.
CREATE OR REPLACE TEMP TABLE ingest_checked AS {{checked}};

-- name: ingest.insert_events
-- The rows placeholder is ingest.valid_checked or ingest.valid_or_fail; the
-- extra placeholder is ingest.extra_json for JSON lines (the Arrow path
-- computes extra from the schema once, see ingest/arrow_typed.go). The
-- file_id placeholder is ? (one file) or the rows' file_id column (a batch).
INSERT INTO events
SELECT {{file_id}}, e.type, e.run_id, ts_v, e.seq, e.schema_version, e.suite, e.scenario, e.fault, e.agent,
       e.client_message_id, e.caused_by, e.task, e.deadline_ms, e.retry_budget, e.stage_id, e.stage,
       e.attempt, enq_v, start_v, end_v, e.outcome, e.plan_valid, e.failure, e.visible_chars,
       e.budget_ms, e.call_id, e.action_id, e.recovery, e.recovery_of, e.tool, e.tool_version,
       e.tool_schema, e.args_digest, e.side_effect, e.idempotency_key, e.status, e.error, e.circuit,
       e.source, e.evidence_ids, e.completed_scope, e.missing_scope, e.role, e.evidence_id, e.claim,
       e.grade, e.path, e.terminal, e.reason, e.chunks_committed, e.chunks_rejected,
       e.disclosed_gaps, e.degradations, {{extra}}
FROM {{rows}};

-- name: ingest.extra_json
-- extra keeps the raw object only when it, or an object of the contract
-- inside it, names a field the contract does not: each key of those objects
-- is one of the paths typed in jt exactly when it is known, so more keys than
-- typed paths means an unknown one.
CASE WHEN len(flatten(json_keys(raw, ['$', '$.fault', '$.fault.expect', '$.agent', '$.caused_by',
                                     '$.task', '$.failure', '$.error', '$.source']))) > list_count(jt)
     THEN raw END

-- name: ingest.valid_checked
-- The valid rows of the line-precise path, less the duplicate events.
(SELECT * FROM ingest_checked WHERE reason IS NULL
 AND line_no NOT IN (SELECT line_no FROM ingest_dups))

-- name: ingest.valid_or_fail
-- The fast path's rows: ingest.checked over the file itself. The first
-- rejected row fails the statement, so the file goes the line-precise way.
(SELECT * FROM ({{checked}}) WHERE reason IS NULL OR error('rejected row: ' || reason))

-- name: ingest.insert_rejected_checked
INSERT INTO rejected_lines
SELECT ?1, ?2, line_no, reason, left(text, 1024) FROM ingest_checked WHERE reason IS NOT NULL
UNION ALL
SELECT ?1, ?2, d.line_no, d.reason, left(c.text, 1024) FROM ingest_dups d JOIN ingest_checked c USING (line_no);

-- name: ingest.fast_source
-- The path placeholder is a quoted SQL literal. No ignore_errors: a
-- malformed line fails the whole read and sends the file down the
-- line-precise path.
(SELECT NULL::BIGINT AS line_no, json AS raw, NULL::VARCHAR AS text, NULL::BIGINT AS file_id
 FROM read_ndjson_objects({{path}}, format = 'newline_delimited', maximum_object_size = 16777216))

-- name: ingest.batch_source
-- The fast path over a batch of small files in one statement (the fixed
-- cost of planning and starting the validation is paid once per batch, not
-- per file): paths is a list of quoted SQL literals, and the file at index
-- i of it (from 0, DuckDB's file_index) gets the file_id base + i.
-- max_object is the longest line a batched file can hold (longer ones go
-- line by line): the reader's buffers are sized by it for every file, so
-- the fast path's 16 MiB made a batch of 500 files ~2.5x slower.
(SELECT NULL::BIGINT AS line_no, json AS raw, NULL::VARCHAR AS text, {{base}} + file_index AS file_id
 FROM read_ndjson_objects({{paths}}, format = 'newline_delimited', maximum_object_size = {{max_object}}))

-- name: ingest.lines_table
-- The line-precise path's lines; reason is set for the lines Go refused
-- (text is then an excerpt).
CREATE OR REPLACE TEMP TABLE ingest_lines (line_no BIGINT, text VARCHAR, reason VARCHAR);

-- name: ingest.lines_source
-- The lines first..last of the line-precise path that are JSON objects.
(SELECT line_no, text::JSON AS raw, text, NULL::BIGINT AS file_id FROM ingest_lines
 WHERE line_no BETWEEN {{first}} AND {{last}}
   AND reason IS NULL AND CASE WHEN json_valid(text) THEN json_type(text) = 'OBJECT' ELSE false END)

-- name: ingest.insert_rejected_lines
-- Lines Go refused and lines that are not JSON objects at all; the rest go
-- on to ingest.checked.
INSERT INTO rejected_lines
SELECT ?, ?, line_no,
       coalesce(reason, CASE WHEN NOT json_valid(text) THEN 'malformed json' ELSE 'not a JSON object' END),
       left(text, 1024)
FROM ingest_lines
WHERE reason IS NOT NULL OR CASE WHEN json_valid(text) THEN json_type(text) <> 'OBJECT' ELSE true END;

-- name: ingest.drop_temp
DROP TABLE IF EXISTS ingest_checked; DROP TABLE IF EXISTS ingest_lines; DROP TABLE IF EXISTS ingest_dups;

-- name: ingest.parquet_to_jsonl
-- A Parquet file's rows as JSON lines for the JSON Lines path; the columns
-- placeholder is the select list (timestamps with a zone made RFC 3339
-- strings by ingest.parquet_ts_column).
COPY (SELECT {{columns}} FROM read_parquet({{path}})) TO {{out}} (FORMAT json);
