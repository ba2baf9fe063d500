package metrics

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/faultlens/faultlens/queries"
)

// RunFilter selects the runs of a runs page.
type RunFilter struct {
	// Text keeps runs whose id, suite, scenario or agent contains it
	// (case-insensitive); empty keeps all.
	Text string
	// Quick is one of QuickFilters; empty keeps all.
	Quick string
	// Scenario keeps the runs of that scenario; empty keeps all.
	Scenario string
	// ErrorClass keeps runs with a recovery chain of that error category;
	// empty keeps all.
	ErrorClass string
	// ErrorOutcome keeps runs with a recovery chain of that outcome (of
	// the category ErrorClass when it is set); empty keeps all.
	ErrorOutcome string
	// GateFalse is one of GateFilters: keeps the runs where that gate is
	// false (not unknown); empty keeps all.
	GateFalse string
	// Suite keeps the runs of that suite; empty keeps all.
	Suite string
	// Slow keeps the runs with a span slower than Slow.OverMs; a zero
	// Slow keeps all.
	Slow SlowSpan
}

// SlowSpan selects runs with a stage or tool span (Scope "stage" or "tool",
// Name) whose Clock ("queue", "exec" or "wall") exceeds OverMs.
type SlowSpan struct {
	Scope, Name, Clock string
	OverMs             float64
}

// GateFilters are the values RunFilter.GateFalse accepts besides "".
var GateFilters = []string{"plan", "evidence", "deliverable", "committed"}

// QuickFilters are the values RunFilter.Quick accepts besides "" that the
// runs view cycles through.
var QuickFilters = []string{"masked", "failed", "seal", "undisclosed"}

// DrillFilters are further values of RunFilter.Quick, reached by drilling
// from a compare row: runs with a zero-call violation, an invalid re-send,
// a re-send after an unknown write outcome, a call through an open
// breaker, or a duplicate call.
var DrillFilters = []string{"zero_call", "invalid_retry", "unknown_outcome", "breaker", "duplicate"}

// RunSort orders a runs page: a column of RunSortColumns and a direction.
type RunSort struct {
	Column string
	Desc   bool
}

// RunSortColumns maps each sortable column name to its SQL expression; the
// runs page accepts no other (the ORDER BY is spliced from this whitelist).
var RunSortColumns = map[string]string{
	"run_id":   "run_id",
	"suite":    "suite",
	"scenario": "scenario",
	"agent":    "agent",
	"claimed":  "claimed",
	"verdict":  "verdict",
	"masked":   "masked",
	"calls":    "tool_calls",
	"resends":  "resends",
	"e2e":      "end_to_end_ms",
}

// RunRow is one line of the runs table.
type RunRow struct {
	RunID, Suite, Scenario, Agent string
	Claimed                       string   // the claimed terminal, "" without one
	Verdict                       string   // success, failed or unknown
	Masked                        bool     // claimed completed but not successful
	Calls, Resends                int64    // tool calls and re-sends
	EndToEndMs                    *float64 // nil without terminal or start
}

// RunsPage returns one page of runs matching f in order o, and how many runs
// match in all. Only the page's rows leave DuckDB.
func (s *Session) RunsPage(ctx context.Context, f RunFilter, o RunSort, offset, limit int) ([]RunRow, int64, error) {
	col, ok := RunSortColumns[o.Column]
	if !ok {
		col = "run_id"
	}
	dir := "ASC"
	if o.Desc {
		dir = "DESC"
	}
	q := queries.Render("ui.runs_page", queries.Args{"order": col + " " + dir + " NULLS LAST, run_id"})
	rows, err := s.conn.QueryContext(ctx, q, sql.Named("text", f.Text), sql.Named("quick", f.Quick),
		sql.Named("limit", limit), sql.Named("offset", offset), sql.Named("scenario", f.Scenario),
		sql.Named("error_class", f.ErrorClass), sql.Named("error_outcome", f.ErrorOutcome),
		sql.Named("gate_false", f.GateFalse), sql.Named("suite", f.Suite),
		sql.Named("slow_scope", f.Slow.Scope), sql.Named("slow_name", f.Slow.Name),
		sql.Named("slow_clock", f.Slow.Clock), sql.Named("slow_over_ms", f.Slow.OverMs))
	if err != nil {
		return nil, 0, fmt.Errorf("metrics: ui.runs_page: %w", err)
	}
	// A failed read shows in rows.Err; closing after it has nothing to add.
	defer func() { _ = rows.Close() }()
	var out []RunRow
	var total int64
	for rows.Next() {
		var r RunRow
		var e2e sql.NullFloat64
		if err := rows.Scan(&r.RunID, &r.Suite, &r.Scenario, &r.Agent, &r.Claimed, &r.Verdict,
			&r.Masked, &r.Calls, &r.Resends, &e2e, &total); err != nil {
			return nil, 0, fmt.Errorf("metrics: ui.runs_page: %w", err)
		}
		if e2e.Valid {
			v := e2e.Float64
			r.EndToEndMs = &v
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("metrics: ui.runs_page: %w", err)
	}
	return out, total, nil
}

// ErrorCell is the number of recovery chains of one suite, error category
// and recovery outcome.
type ErrorCell struct {
	Suite, Category, Outcome string
	Chains                   int64
}

// ErrorMatrix returns the recovery chains by suite, category and outcome.
func (s *Session) ErrorMatrix(ctx context.Context) ([]ErrorCell, error) {
	rows, err := s.conn.QueryContext(ctx, queries.Get("ui.error_matrix"))
	if err != nil {
		return nil, fmt.Errorf("metrics: ui.error_matrix: %w", err)
	}
	// A failed read shows in rows.Err; closing after it has nothing to add.
	defer func() { _ = rows.Close() }()
	var out []ErrorCell
	for rows.Next() {
		var c ErrorCell
		if err := rows.Scan(&c.Suite, &c.Category, &c.Outcome, &c.Chains); err != nil {
			return nil, fmt.Errorf("metrics: ui.error_matrix: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// FilterValues are the values the runs view's quick filters cycle through.
type FilterValues struct {
	Scenarios, ErrorClasses []string
}

// RunFilterValues returns the scenarios of the runs and the error categories
// of their recovery chains, sorted.
func (s *Session) RunFilterValues(ctx context.Context) (FilterValues, error) {
	var v FilterValues
	var err error
	if v.Scenarios, err = s.strings(ctx, "ui.scenarios"); err != nil {
		return v, err
	}
	v.ErrorClasses, err = s.strings(ctx, "ui.error_classes")
	return v, err
}

// strings runs a named query of one text column.
func (s *Session) strings(ctx context.Context, name string) ([]string, error) {
	rows, err := s.conn.QueryContext(ctx, queries.Get(name))
	if err != nil {
		return nil, fmt.Errorf("metrics: %s: %w", name, err)
	}
	// A failed read shows in rows.Err; closing after it has nothing to add.
	defer func() { _ = rows.Close() }()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, fmt.Errorf("metrics: %s: %w", name, err)
		}
		out = append(out, v)
	}
	return out, rows.Err()
}
