package bench

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/faultlens/faultlens/store"
)

// rawColumns is every contract field with its type, as in
// ingest/bench_test.go: the typed read_ndjson load ingest is measured
// against.
const rawColumns = `{type: 'VARCHAR', run_id: 'VARCHAR', ts: 'TIMESTAMPTZ', seq: 'BIGINT', schema_version: 'BIGINT',
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
 error: 'STRUCT(code VARCHAR, category VARCHAR, retryable BOOLEAN, retry_after_ms BIGINT, side_effect_state VARCHAR, message VARCHAR)',
 circuit: 'VARCHAR', source: 'STRUCT(name VARCHAR, grade VARCHAR, fallback BOOLEAN)',
 evidence_ids: 'VARCHAR[]', completed_scope: 'VARCHAR[]', missing_scope: 'VARCHAR[]', role: 'VARCHAR',
 evidence_id: 'VARCHAR', claim: 'VARCHAR', grade: 'VARCHAR', path: 'VARCHAR', terminal: 'VARCHAR',
 reason: 'VARCHAR', chunks_committed: 'BIGINT', chunks_rejected: 'BIGINT', disclosed_gaps: 'BOOLEAN',
 degradations: 'VARCHAR[]'}`

// rawScanSQL is the raw figure beside the report and the comparison: one
// plain aggregation over the stored events, a lower bound for any query
// that must read them all.
const rawScanSQL = `SELECT type, tool, status, count(*), count(DISTINCT run_id),
       avg(date_diff('millisecond', started_at, ended_at)), min(ts), max(ts)
FROM events GROUP BY ALL`

// notes say what each raw figure is; Write prints them under the table.
var notes = []string{
	"raw read_ndjson: CREATE TABLE t AS SELECT * FROM read_ndjson([clean files], columns={every contract field and type}) into a fresh in-memory DuckDB with the same limits; rows 1 and 2 share it (the clean file), as the targets ask.",
	"raw arrow-go: reading every record batch of the .arrow file with arrow-go's ipc.FileReader. DuckDB's zero-copy Arrow RegisterView needs the duckdb_arrow build tag, which this build does not use, so there is no DuckDB Arrow figure.",
	"raw GROUP BY: " + strings.Join(strings.Fields(rawScanSQL), " ") + " over the ingested events table (one full scan).",
	"views: the data call behind each dashboard view on one metrics session whose fact tables are built (as the dashboard does at start), median of 3 calls.",
	"peak RSS is getrusage's ru_maxrss of this process so far (Go heap and DuckDB together).",
}

// rawNDJSON loads paths with DuckDB's typed NDJSON reader into a table of
// a fresh database and returns how long the load took.
func rawNDJSON(ctx context.Context, lim store.Limits, paths []string, want int64) (time.Duration, error) {
	db, err := store.Open(ctx, "", lim)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	quoted := make([]string, len(paths))
	for i, p := range paths {
		quoted[i] = store.Quote(p)
	}
	q := fmt.Sprintf("CREATE TABLE t AS SELECT * FROM read_ndjson([%s], columns = %s)", strings.Join(quoted, ", "), rawColumns)
	t0 := time.Now()
	if _, err := db.ExecContext(ctx, q); err != nil {
		return 0, fmt.Errorf("raw read_ndjson: %w", err)
	}
	d := time.Since(t0)
	var n int64
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM t").Scan(&n); err != nil || n != want {
		return 0, fmt.Errorf("raw read_ndjson: %d rows (%v), want %d", n, err, want)
	}
	return d, nil
}

// rawArrow reads every record batch of the Arrow IPC file at path and
// returns how long that took.
func rawArrow(path string, want int64) (time.Duration, error) {
	t0 := time.Now()
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	r, err := ipc.NewFileReader(f, ipc.WithAllocator(memory.DefaultAllocator))
	if err != nil {
		return 0, fmt.Errorf("raw arrow: %w", err)
	}
	defer r.Close()
	var rows int64
	for i := 0; i < r.NumRecords(); i++ {
		rec, err := r.RecordBatch(i)
		if err != nil {
			return 0, fmt.Errorf("raw arrow: %w", err)
		}
		rows += rec.NumRows()
	}
	d := time.Since(t0)
	if rows != want {
		return 0, fmt.Errorf("raw arrow: %d rows, want %d", rows, want)
	}
	return d, nil
}

// rawScan runs rawScanSQL over db's events and returns how long it took.
func rawScan(ctx context.Context, db *sql.DB) (time.Duration, error) {
	t0 := time.Now()
	rows, err := db.QueryContext(ctx, rawScanSQL)
	if err != nil {
		return 0, fmt.Errorf("raw scan: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
	}
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("raw scan: %w", err)
	}
	return time.Since(t0), nil
}
