package ui

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/faultlens/faultlens/compare"
	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/queries"
	"github.com/faultlens/faultlens/textsafe"
)

// backend is the dashboard's only door to the data. Every method does I/O
// and is called from inside a tea.Cmd, never from Update or View. The
// metrics session is not safe for concurrent use, so calls are serialised.
type backend struct {
	db *sql.DB
	// suites, when set (--baseline and --candidate), scopes every view to
	// those suites, so a database of many nights opens as fast as one.
	suites []string
	// list and reopen are Options.Catalog and Options.Rescope; release
	// lets go of a copy reopen made (nil: none).
	list    func(context.Context) ([]metrics.SuiteStart, error)
	reopen  reopenFunc
	release func()

	mu   sync.Mutex
	sess *metrics.Session

	sqlMu   sync.Mutex
	sqlConn *sql.Conn // the console's own connection, opened on first use
}

// maxSQLRows bounds what the console reads of one result.
const maxSQLRows = 1000

// overview is what the summary views need, loaded once per load of the
// suites: the whole report (the latency view's percentiles included; they
// are read from the session's latency_facts, ~100 rows), the error matrix,
// the runs filters' values and the schema. The latency view's histograms
// are not in it: that view asks for them when it is first shown.
type overview struct {
	report  *metrics.Report
	matrix  []metrics.ErrorCell
	filters metrics.FilterValues
	schema  []metrics.TableColumns
}

func (b *backend) load(ctx context.Context) (*overview, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.sess == nil {
		s, err := metrics.OpenSuites(ctx, b.db, b.suites)
		if err != nil {
			return nil, err
		}
		b.sess = s
	}
	rep, err := b.sess.Report(ctx, metrics.Options{})
	if err != nil {
		return nil, err
	}
	if err := b.checkScope(ctx, rep); err != nil {
		return nil, err
	}
	mx, err := b.sess.ErrorMatrix(ctx)
	if err != nil {
		return nil, err
	}
	ov := &overview{report: rep, matrix: mx}
	if ov.filters, err = b.sess.RunFilterValues(ctx); err != nil {
		return nil, err
	}
	if ov.schema, err = b.sess.Schema(ctx); err != nil {
		return nil, err
	}
	return ov, nil
}

// checkScope fails when a suite the dashboard was scoped to has no runs,
// naming the suites there are: opening on the other suite alone would
// then say that compare needs two. b.mu is held.
func (b *backend) checkScope(ctx context.Context, rep *metrics.Report) error {
	var missing []string
	for _, n := range b.suites {
		if !slices.ContainsFunc(rep.Suites, func(s metrics.Suite) bool { return s.Suite == n }) {
			missing = append(missing, n)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	var known []metrics.SuiteStart
	var err error
	if b.list != nil {
		known, err = b.list(ctx)
	} else {
		known, err = metrics.SuitesByDate(ctx, b.db)
	}
	if err != nil {
		return fmt.Errorf("listing the suites: %w", err)
	}
	names := make([]string, len(known))
	for i, k := range known {
		names[len(known)-1-i] = fmt.Sprintf("%s (%d runs)", safe(k.Suite), k.Runs)
	}
	return fmt.Errorf("unknown suite %s; the suites there are: %s (0 picks two)", safe(strings.Join(missing, ", ")), strings.Join(names, ", "))
}

// compare judges suite cand against suite base with the compare engine and
// the shipped gates, as "faultlens compare" does.
func (b *backend) compare(ctx context.Context, base, cand string) (*compare.Result, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.sess == nil {
		return nil, errors.New("not loaded yet")
	}
	be, err := b.sess.Evidence(ctx, base)
	if err != nil {
		return nil, err
	}
	ce, err := b.sess.Evidence(ctx, cand)
	if err != nil {
		return nil, err
	}
	gates := compare.DefaultGates()
	res := compare.Compare(be, ce, compare.Side{Name: base, Source: "suite", Suite: base},
		compare.Side{Name: cand, Source: "suite", Suite: cand}, compare.Options{Alpha: gates.Alpha})
	compare.Evaluate(res, gates)
	return res, nil
}

func (b *backend) runs(ctx context.Context, f metrics.RunFilter, o metrics.RunSort, offset, limit int) ([]metrics.RunRow, int64, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.sess == nil {
		return nil, 0, errors.New("not loaded yet")
	}
	return b.sess.RunsPage(ctx, f, o, offset, limit)
}

func (b *backend) detail(ctx context.Context, id string) (*metrics.RunDetail, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.sess == nil {
		return nil, errors.New("not loaded yet")
	}
	return b.sess.RunDetail(ctx, id)
}

// close lets go of the session and the console's connection. Their errors
// are dropped: both hold only TEMP tables and a read-only connection of a
// database that is closed next, so nothing can be lost, and the dashboard
// is already gone from the screen.
func (b *backend) close() {
	b.mu.Lock()
	if b.sess != nil {
		_ = b.sess.Close()
	}
	b.mu.Unlock()
	b.sqlMu.Lock()
	if b.sqlConn != nil {
		_ = b.sqlConn.Close()
	}
	b.sqlMu.Unlock()
	if b.release != nil {
		b.release()
	}
}

// trimSQL is q without its closing semicolon; a statement with a semicolon
// inside is refused before DuckDB sees it, because preparing several
// statements runs every one but the last.
func trimSQL(q string) (string, error) {
	q = strings.TrimSpace(q)
	q = strings.TrimSpace(strings.TrimSuffix(q, ";"))
	if q == "" {
		return "", errors.New("empty query")
	}
	if strings.Contains(q, ";") {
		return "", errors.New("one statement at a time (no ';' inside)")
	}
	return q, nil
}

// errReadOnly is what a statement that would change something gets.
var errReadOnly = errors.New("read-only console: only statements that read (SELECT, WITH, FROM, DESCRIBE, SHOW, SUMMARIZE, EXPLAIN, PRAGMA table_info) are allowed")

// checkKind prepares q on c and accepts only a statement that reads, by
// DuckDB's own parse of it: a statement DuckDB cannot parse or bind fails
// with DuckDB's message, not with the read-only one.
func checkKind(ctx context.Context, c *sql.Conn, q string) error {
	return c.Raw(func(dc any) error {
		pc, ok := dc.(driver.ConnPrepareContext)
		if !ok {
			return errors.New("console: the driver cannot prepare")
		}
		st, err := pc.PrepareContext(ctx, q)
		if err != nil {
			return err
		}
		defer func() { _ = st.Close() }() // prepared only to be read
		ds, ok := st.(*duckdb.Stmt)
		if !ok {
			return errors.New("console: not a DuckDB statement")
		}
		kind, err := ds.StatementType()
		if err != nil {
			return err
		}
		switch kind {
		case duckdb.STATEMENT_TYPE_SELECT, duckdb.STATEMENT_TYPE_EXPLAIN:
			return nil
		case duckdb.STATEMENT_TYPE_PRAGMA:
			low := strings.ToLower(strings.Join(strings.Fields(q), " "))
			if strings.HasPrefix(low, "pragma table_info") || strings.HasPrefix(low, "show") || strings.HasPrefix(low, "describe") {
				return nil
			}
		}
		return errReadOnly
	})
}

// sqlConnection opens the console's connection: external access off and the
// configuration locked (queries/ui_console.sql), so no statement can read
// or write files, attach databases or load extensions.
func (b *backend) sqlConnection(ctx context.Context) (*sql.Conn, error) {
	if b.sqlConn != nil {
		return b.sqlConn, nil
	}
	c, err := b.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := c.ExecContext(ctx, queries.Get("ui.console_lockdown")); err != nil {
		var locked bool
		if qerr := c.QueryRowContext(ctx, queries.Get("ui.console_locked_down")).Scan(&locked); qerr != nil || !locked {
			_ = c.Close() // given up on; the lock-down error is the one to report
			return nil, fmt.Errorf("console: locking the connection down: %w", err)
		}
	}
	b.sqlConn = c
	return c, nil
}

// sqlResult is a console result, every cell already made safe to print.
type sqlResult struct {
	cols      []string
	rows      [][]string
	truncated bool
}

// query runs one read statement inside a transaction that is always rolled
// back, so even a statement that slipped past checkSQL changes nothing.
func (b *backend) query(ctx context.Context, q string) (*sqlResult, error) {
	q, err := trimSQL(q)
	if err != nil {
		return nil, err
	}
	b.sqlMu.Lock()
	defer b.sqlMu.Unlock()
	c, err := b.sqlConnection(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := c.ExecContext(ctx, queries.Get("ui.console_begin")); err != nil {
		return nil, fmt.Errorf("console: %w", err)
	}
	// A rollback that fails leaves the transaction open: the next query's
	// BEGIN then fails and says so in the console.
	defer func() { _, _ = c.ExecContext(context.Background(), queries.Get("ui.console_rollback")) }()
	if err := checkKind(ctx, c, q); err != nil {
		return nil, err
	}
	// A cancelled ctx (esc or ctrl+c in the console) interrupts DuckDB.
	rows, err := c.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer func() { _ = rows.Close() }() // read only; rows.Err says what the reading met
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	res := &sqlResult{cols: cols}
	for rows.Next() {
		if len(res.rows) == maxSQLRows {
			res.truncated = true
			break
		}
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		line := make([]string, len(cols))
		for i, v := range vals {
			if v == nil {
				line[i] = "NULL"
				continue
			}
			line[i] = textsafe.Terminal(fmt.Sprint(v))
		}
		res.rows = append(res.rows, line)
	}
	return res, rows.Err()
}

// FirstPaint loads what the dashboard's first screen shows (the overview
// of suites, nil for all) and lets it go: the benchmark of opening the
// dashboard, without a terminal.
func FirstPaint(ctx context.Context, db *sql.DB, suites []string) error {
	b := &backend{db: db, suites: suites}
	defer b.close()
	_, err := b.load(ctx)
	return err
}

// LastTwoSuites is the dashboard's default scope on a database of many
// nights: the last two suites by start (nil when there are two or fewer,
// which means all of them). conn reads the database being opened.
func LastTwoSuites(ctx context.Context, conn *sql.Conn) ([]string, error) {
	order, err := metrics.SuitesByDate(ctx, conn)
	if err != nil {
		return nil, err
	}
	if n := len(order); n > 2 {
		return []string{order[n-2].Suite, order[n-1].Suite}, nil
	}
	return nil, nil
}
