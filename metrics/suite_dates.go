package metrics

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/faultlens/faultlens/queries"
)

// SuiteStart is one suite and the start of its earliest run.
type SuiteStart struct {
	Suite     string
	StartedAt *time.Time
	Runs      int64
}

// SuitesByDate lists the suites in the order of their earliest run.
func SuitesByDate(ctx context.Context, db interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}) ([]SuiteStart, error) {
	rows, err := db.QueryContext(ctx, queries.Get("compare.suites"))
	if err != nil {
		return nil, fmt.Errorf("metrics: suites: %w", err)
	}
	// A failed read shows in rows.Err; closing after it has nothing to add.
	defer func() { _ = rows.Close() }()
	var out []SuiteStart
	for rows.Next() {
		var st SuiteStart
		var started sql.NullTime
		if err := rows.Scan(&st.Suite, &started, &st.Runs); err != nil {
			return nil, fmt.Errorf("metrics: suites: %w", err)
		}
		if started.Valid {
			t := started.Time
			st.StartedAt = &t
		}
		out = append(out, st)
	}
	return out, rows.Err()
}
