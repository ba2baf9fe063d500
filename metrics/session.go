package metrics

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/faultlens/faultlens/queries"
)

// factStatements build the per-call, per-run and per-chain fact tables, in
// dependency order.
var factStatements = []string{"facts.calls", "facts.runs", "facts.chains", "facts.spans", "facts.latency"}

// Session is one database connection on which the fact tables have been
// built. Every metric query of this package runs on it. Not safe for
// concurrent use; open one per goroutine.
type Session struct {
	conn  *sql.Conn
	sinks bool // the evidence sink functions are registered (scan_chunks.go)
}

// Open pins a connection of db and builds the fact tables over everything
// ingested so far.
func Open(ctx context.Context, db *sql.DB) (*Session, error) {
	return OpenSuites(ctx, db, nil)
}

// OpenSuites is Open over the runs of the given suites only (all runs when
// suites is empty): the cost follows the suites asked for, not the size of
// the database.
func OpenSuites(ctx context.Context, db *sql.DB, suites []string) (*Session, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("metrics: %w", err)
	}
	if err := scope(ctx, conn, suites); err != nil {
		closeQuietly(conn)
		return nil, fmt.Errorf("metrics: scope: %w", err)
	}
	for _, name := range factStatements {
		if _, err := conn.ExecContext(ctx, queries.Get(name)); err != nil {
			closeQuietly(conn)
			return nil, fmt.Errorf("metrics: %s: %w", name, err)
		}
	}
	return &Session{conn: conn}, nil
}

// scope builds scoped_events, the events the fact SQL reads. When the
// suites asked for hold every run of the database (the dashboard's private
// copy of two nights, a database of one night) it is a view over events,
// as for all suites: copying a million wide rows cost more than the facts
// built on them.
func scope(ctx context.Context, conn *sql.Conn, suites []string) error {
	stmts := scopeStatements(suites)
	for _, q := range stmts[:len(stmts)-1] {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	last := stmts[len(stmts)-1]
	if len(suites) > 0 {
		var others int64
		if err := conn.QueryRowContext(ctx, queries.Get("scope.others")).Scan(&others); err != nil {
			return err
		}
		if others == 0 {
			last = queries.Get("scope.all")
		}
	}
	_, err := conn.ExecContext(ctx, last)
	return err
}

// scopeStatements builds the scoped_events view the fact SQL reads, after
// the session's macros (which the fact SQL uses).
func scopeStatements(suites []string) []string {
	macros := queries.Get("session.macros")
	if len(suites) == 0 {
		return []string{macros, queries.Get("scope.all")}
	}
	return []string{macros, queries.Render("scope.runs", queries.Args{"suites": queries.Literals(suites)}),
		queries.Get("scope.view")}
}

// Close releases the connection and its fact tables.
func (s *Session) Close() error {
	ctx := context.Background()
	// Each drop is tried whatever the others did: a drop of the kind an
	// object is not (span_facts and scoped_events are a view or a table)
	// fails, and a connection that cannot drop its tables is closed all the
	// same (they are TEMP, and the next session replaces them).
	for _, q := range queries.Statements("session.drop") {
		_, _ = s.conn.ExecContext(ctx, q)
	}
	return s.conn.Close()
}

// query runs a named statement and returns its rows as maps keyed by
// column name.
func (s *Session) query(ctx context.Context, name string, args ...any) ([]map[string]any, error) {
	rows, err := s.conn.QueryContext(ctx, queries.Get(name), args...)
	if err != nil {
		return nil, fmt.Errorf("metrics: %s: %w", name, err)
	}
	// A failed read shows in rows.Err; closing after it has nothing to add.
	defer func() { _ = rows.Close() }()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out []map[string]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, fmt.Errorf("metrics: %s: %w", name, err)
		}
		m := make(map[string]any, len(cols))
		for i, c := range cols {
			m[c] = vals[i]
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("metrics: %s: %w", name, err)
	}
	return out, nil
}
