package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/faultlens/faultlens/queries"
)

// RejectedLine is one input line that did not become an event: its file,
// line number, why, and its text, all as read (untrusted).
type RejectedLine struct {
	Path   string
	Line   int64
	Reason string
	Text   string
}

// RejectedLines lists up to limit rejected lines of db in file and line
// order.
func RejectedLines(ctx context.Context, db *sql.DB, limit int) ([]RejectedLine, error) {
	rows, err := db.QueryContext(ctx, queries.Get("rejected.list"), sql.Named("limit", limit))
	if err != nil {
		return nil, fmt.Errorf("list rejected lines: %w", err)
	}
	// A failed read shows in rows.Err; closing after it has nothing to add.
	defer func() { _ = rows.Close() }()
	var out []RejectedLine
	for rows.Next() {
		var r RejectedLine
		if err := rows.Scan(&r.Path, &r.Line, &r.Reason, &r.Text); err != nil {
			return nil, fmt.Errorf("list rejected lines: %w", err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list rejected lines: %w", err)
	}
	return out, nil
}
