-- Storage schema. Applied in order inside one transaction when a database is
-- opened; every statement is idempotent so that reopening a database is safe.

-- name: schema.meta
CREATE TABLE IF NOT EXISTS faultlens_meta (key VARCHAR PRIMARY KEY, value VARCHAR);

-- name: schema.files
-- One row per ingested file. sha256 makes ingest at-most-once per content.
CREATE TABLE IF NOT EXISTS files (
    file_id     INTEGER PRIMARY KEY,
    path        VARCHAR NOT NULL,
    sha256      VARCHAR NOT NULL UNIQUE,
    format      VARCHAR NOT NULL,
    bytes       BIGINT NOT NULL,
    lines       BIGINT NOT NULL,
    accepted    BIGINT NOT NULL,
    rejected    BIGINT NOT NULL,
    blank       BIGINT NOT NULL,
    skipped     BIGINT NOT NULL DEFAULT 0,
    ingested_at TIMESTAMPTZ NOT NULL
);

-- name: schema.rejected
-- Every line that did not become an event: never silently dropped.
CREATE TABLE IF NOT EXISTS rejected_lines (
    file_id INTEGER NOT NULL,
    path    VARCHAR NOT NULL,
    line_no BIGINT NOT NULL,
    reason  VARCHAR NOT NULL,
    text    VARCHAR NOT NULL
);

-- name: schema.events
-- One wide row per event; columns a type does not use stay NULL (cheap in a
-- column store). Field names are the contract's. extra keeps the whole line
-- when it carried fields the contract does not name, so they stay queryable.
CREATE TABLE IF NOT EXISTS events (
    file_id           INTEGER NOT NULL,
    type              VARCHAR NOT NULL,
    run_id            VARCHAR NOT NULL,
    ts                TIMESTAMPTZ NOT NULL,
    seq               BIGINT,
    schema_version    BIGINT,
    suite             VARCHAR,
    scenario          VARCHAR,
    fault             STRUCT(class VARCHAR, kind VARCHAR, target_tool VARCHAR, expect STRUCT(action VARCHAR, terminal VARCHAR)),
    agent             STRUCT(name VARCHAR, version VARCHAR),
    client_message_id VARCHAR,
    caused_by         STRUCT(run_id VARCHAR, cause VARCHAR),
    task              STRUCT(kind VARCHAR, requires_current_evidence BOOLEAN, evidence_required BIGINT, min_grade VARCHAR),
    deadline_ms       BIGINT,
    retry_budget      BIGINT,
    stage_id          VARCHAR,
    stage             VARCHAR,
    attempt           BIGINT,
    enqueued_at       TIMESTAMPTZ,
    started_at        TIMESTAMPTZ,
    ended_at          TIMESTAMPTZ,
    outcome           VARCHAR,
    plan_valid        BOOLEAN,
    failure           STRUCT(category VARCHAR, retryable BOOLEAN, reason VARCHAR),
    visible_chars     BIGINT,
    budget_ms         BIGINT,
    call_id           VARCHAR,
    action_id         VARCHAR,
    recovery          VARCHAR,
    recovery_of       VARCHAR,
    tool              VARCHAR,
    tool_version      VARCHAR,
    tool_schema       VARCHAR,
    args_digest       VARCHAR,
    side_effect       VARCHAR,
    idempotency_key   VARCHAR,
    status            VARCHAR,
    error             STRUCT(code VARCHAR, category VARCHAR, retryable BOOLEAN, retry_after_ms BIGINT, side_effect_state VARCHAR, message VARCHAR),
    circuit           VARCHAR,
    source            STRUCT(name VARCHAR, grade VARCHAR, fallback BOOLEAN),
    evidence_ids      VARCHAR[],
    completed_scope   VARCHAR[],
    missing_scope     VARCHAR[],
    role              VARCHAR,
    evidence_id       VARCHAR,
    claim             VARCHAR,
    grade             VARCHAR,
    path              VARCHAR,
    terminal          VARCHAR,
    reason            VARCHAR,
    chunks_committed  BIGINT,
    chunks_rejected   BIGINT,
    disclosed_gaps    BOOLEAN,
    degradations      VARCHAR[],
    extra             JSON
);

-- name: schema.suite_metrics
-- Per-suite report cache, written after each ingest for the suites it
-- touched, so that history and reports over many nights read one row per
-- suite instead of rebuilding facts over every event. metrics_version is a
-- hash of the metric SQL: a row written by another version is ignored.
-- files_upto is the highest file_id committed when the row was computed: a
-- row is stale when a later file touches its suite (see cache.stale).
CREATE TABLE IF NOT EXISTS suite_metrics (
    suite           VARCHAR PRIMARY KEY,
    metrics_version VARCHAR NOT NULL,
    computed_at     TIMESTAMPTZ NOT NULL,
    report          JSON NOT NULL,
    files_upto      BIGINT NOT NULL
);

-- name: schema.upgrade_1_to_2
-- Storage version 1 had no files_upto in the report cache, so its rows
-- cannot be checked against the files committed since; the cache is only a
-- cache, so it is dropped and rebuilt (schema.suite_metrics recreates it).
DROP TABLE IF EXISTS suite_metrics;
