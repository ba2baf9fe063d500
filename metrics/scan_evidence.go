package metrics

import (
	"database/sql"
	"fmt"
)

// eachRow scans every row of rows into vals (one any per column) and calls
// fn. Scanning into *any is database/sql's cheapest path: the driver's value
// is kept as it is, where a typed destination (sql.NullFloat64, *string)
// goes through reflection for each value.
func eachRow(rows *sql.Rows, part string, ncols int, fn func(vals []any)) error {
	vals := make([]any, ncols)
	ptrs := make([]any, ncols)
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return fmt.Errorf("metrics: scan %s: %w", part, err)
		}
		fn(vals)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("metrics: scan %s: %w", part, err)
	}
	return nil
}

// latencyColumns are the columns of baseline.latency, in order.
var latencyColumns = []string{"run_id", "scope", "name", "queue_ms", "exec_ms", "wall_ms"}

// scanLatency reads latency samples into typed values directly: there are
// about as many samples as events, so the generic map per row of
// ScanEvidence would dominate a comparison's time.
func scanLatency(rows *sql.Rows, ev *Evidence) error {
	in := newInterner()
	return eachRow(rows, "latency", len(latencyColumns), func(v []any) {
		ev.Latency = append(ev.Latency, LatencySample{RunID: asString(v[0]), Scope: in.strOf(v[1]), Name: in.strOf(v[2]),
			QueueMs: in.float(v[3]), ExecMs: in.float(v[4]), WallMs: in.float(v[5])})
	})
}

// recoveryColumns are the columns of baseline.recovery, in order.
var recoveryColumns = []string{"run_id", "category", "outcome"}

// scanRecovery reads recovery chains into typed values directly.
func scanRecovery(rows *sql.Rows, ev *Evidence) error {
	in := newInterner()
	return eachRow(rows, "recovery", len(recoveryColumns), func(v []any) {
		ev.Recovery = append(ev.Recovery, RecoverySample{RunID: asString(v[0]), Category: in.strOf(v[1]), Outcome: in.strOf(v[2])})
	})
}
