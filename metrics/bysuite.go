package metrics

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/faultlens/faultlens/queries"
)

// ReportBySuite computes the report one suite at a time, each over fact
// tables of that suite's runs only, so that memory follows the largest suite
// rather than the database (thirty nights of a million events each report in
// the memory of one night). A suite whose report the cache holds for this
// version of the metric SQL, computed after the last file that touches the
// suite, is read from the cache; any other suite is computed from events. The result equals
// Session.Report over all of them.
func ReportBySuite(ctx context.Context, db *sql.DB, opts Options) (*Report, error) {
	suites := opts.Suites
	if len(suites) == 0 {
		var err error
		if suites, err = AllSuites(ctx, db); err != nil {
			return nil, err
		}
	}
	rep := &Report{ReportVersion: ReportVersion, Suites: []Suite{}}
	var err error
	if rep.Rejected, err = rejected(ctx, db); err != nil {
		return nil, err
	}
	cached, err := readFreshCache(ctx, db)
	if err != nil {
		return nil, err
	}
	for _, name := range suites {
		if st, ok := cached[name]; ok {
			rep.Suites = append(rep.Suites, st)
			continue
		}
		st, ok, err := suiteReport(ctx, db, name)
		if err != nil {
			return nil, err
		}
		if ok {
			rep.Suites = append(rep.Suites, st)
		}
	}
	return rep, nil
}

// AllSuites lists every suite with runs, sorted, with "unknown" when some
// run has no run event.
func AllSuites(ctx context.Context, db *sql.DB) ([]string, error) {
	return strings1(ctx, db, queries.Get("suites.all"))
}

// suiteReport computes one suite's part of the report; ok is false when the
// suite has no runs.
func suiteReport(ctx context.Context, db *sql.DB, name string) (Suite, bool, error) {
	s, err := OpenSuites(ctx, db, []string{name})
	if err != nil {
		return Suite{}, false, err
	}
	defer closeQuietly(s)
	r, err := s.Report(ctx, Options{Suites: []string{name}})
	if err != nil || len(r.Suites) == 0 {
		return Suite{}, false, err
	}
	return r.Suites[0], true, nil
}

// rejected counts the rejected lines by reason.
func rejected(ctx context.Context, db *sql.DB) (Rejected, error) {
	out := Rejected{ByReason: map[string]int64{}}
	rows, err := db.QueryContext(ctx, queries.Get("metrics.rejected"))
	if err != nil {
		return out, fmt.Errorf("metrics: rejected: %w", err)
	}
	defer closeQuietly(rows)
	for rows.Next() {
		var reason string
		var n int64
		if err := rows.Scan(&reason, &n); err != nil {
			return out, err
		}
		out.ByReason[reason] = n
		out.Lines += n
	}
	return out, rows.Err()
}

// strings1 runs a query of one VARCHAR column.
func strings1(ctx context.Context, db *sql.DB, q string, args ...any) ([]string, error) {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("metrics: %w", err)
	}
	defer closeQuietly(rows)
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}
