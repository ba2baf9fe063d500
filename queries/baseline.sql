-- Frozen evidence of one suite: per-run facts and latency samples. Saved
-- baselines are these rows written to Parquet; comparisons read the same
-- columns from the live fact tables or from the files, so both sides of a
-- comparison are always judged alike. Requires the fact tables.

-- name: baseline.runs
-- One row per run of suite $suite with the gates, the claimed terminal, the
-- violations and the per-run counts the call-level rates need.
-- degraded_evidence counts confirmed evidence on a degraded path (or from a
-- fallback source); degraded_evidence_ok those of them at grade secondary
-- or better; direct_evidence(_ok) the same for the direct path.
-- The counts are run_facts columns (facts.runs), so this is a projection.
-- In no particular order: the chunks reach the reader in any order anyway
-- (baseline.sink), and it sorts the runs as baseline.read_runs orders a
-- saved file's (metrics.sortRuns); saved files are written sorted
-- (baseline.save_copy).
SELECT r.run_id, r.suite, r.scenario, r.started_at,
       r.agent.name AS agent_name, r.agent.version AS agent_version,
       r.fault.class AS fault_class,
       r.plan_valid, r.evidence_satisfied, r.answer_deliverable, r.terminal_committed,
       r.success, r.claimed, r.masked_success, r.undisclosed_degradation,
       r.zero_call_violation, r.seal_violation, r.expectation_met,
       r.retry_budget_overrun, r.deadline_overrun,
       r.tool_calls::BIGINT AS tool_calls, r.resends::BIGINT AS resends,
       r.invalid_resends::BIGINT AS invalid_resends,
       r.unknown_outcome_resends::BIGINT AS unknown_outcome_resends,
       r.duplicates::BIGINT AS duplicates,
       r.circuit_open_calls::BIGINT AS circuit_open_calls,
       r.breaker_violations::BIGINT AS breaker_violations,
       r.degraded_evidence::BIGINT AS degraded_evidence,
       r.degraded_evidence_ok::BIGINT AS degraded_evidence_ok,
       r.direct_evidence::BIGINT AS direct_evidence,
       r.direct_evidence_ok::BIGINT AS direct_evidence_ok,
       r.end_to_end_ms::DOUBLE AS end_to_end_ms
FROM run_facts r
WHERE r.suite = $suite;

-- name: baseline.latency
-- One row per stage span and tool call of suite $suite (queue, exec and wall in
-- milliseconds from microseconds, as metrics.latency computes them), plus
-- one 'run'/'end_to_end' wall sample per run. In no particular order: the
-- comparison sorts each distribution's values before it uses them
-- (compare.samples), so the order cannot change a result, and sorting
-- ~700k rows by their strings was most of this statement's cost. Saved
-- files are written sorted (baseline.save_copy).
SELECT run_id, scope, name, queue_ms, exec_ms, wall_ms
FROM span_facts
WHERE suite = $suite AND wall_ms IS NOT NULL;

-- name: baseline.recovery
-- Recovery chains of suite $suite: error class and outcome, for the charts
-- (which count them: no order needed, as for baseline.latency).
SELECT run_id, category, outcome
FROM chain_facts
WHERE suite = $suite;

-- name: baseline.counts
-- How many rows each part of suite $suite's evidence has (the WHERE
-- clauses of baseline.runs, .latency and .recovery), so that the reader
-- allocates each part once instead of growing it row by row.
SELECT (SELECT count(*) FROM run_facts WHERE suite = $suite) AS runs,
       (SELECT count(*) FROM span_facts WHERE suite = $suite AND wall_ms IS NOT NULL) AS latency,
       (SELECT count(*) FROM chain_facts WHERE suite = $suite) AS recovery;

-- name: baseline.sink
-- Every row of one evidence part (the part placeholder is the text of a
-- baseline.<part> statement over $suite, columns its column names) handed
-- to the part's sink function (metrics/scan_chunks.go), which DuckDB calls
-- once per data chunk, possibly from several threads: Go reads the
-- vectors column-wise instead of one driver value per column and row. The
-- count checks that every row reached the sink.
SELECT count({{sink}}({{columns}})) AS n FROM ({{part}}) p;

-- name: baseline.sources
-- The files the database was built from, for the manifest.
SELECT path, sha256 FROM files ORDER BY path;

-- name: baseline.agents
-- Distinct agent versions of suite $suite, for the manifest.
SELECT DISTINCT coalesce(agent.name, '') || '@' || coalesce(agent.version, '') AS agent
FROM run_facts WHERE suite = $suite AND agent IS NOT NULL ORDER BY 1;

-- name: baseline.save
-- The rows of one evidence part (the part placeholder is the text of a
-- baseline.<part> statement over $suite) held in a temporary table, which
-- COPY can write (it takes no parameters).
CREATE OR REPLACE TEMP TABLE {{table}} AS {{part}};

-- name: baseline.save_copy
-- Sorted by every column, so that a saved file's bytes do not depend on
-- the order the part's statement returned its rows in.
COPY (SELECT * FROM {{table}} ORDER BY ALL) TO {{path}} (FORMAT parquet);

-- name: baseline.save_drop
DROP TABLE IF EXISTS {{table}};

-- name: baseline.read_runs
SELECT * FROM read_parquet($1) ORDER BY started_at NULLS LAST, run_id;

-- name: baseline.read_latency
-- No order, as baseline.latency.
SELECT * FROM read_parquet($1);

-- name: baseline.read_recovery
SELECT * FROM read_parquet($1);
