package ui

import (
	"context"
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// The SQL console is read-only with external access off and configuration
// locked: each of these fails with a clear message, and a plain read works.
func TestConsoleLockedDown(t *testing.T) {
	db := sampleDB(t)
	b := &backend{db: db}
	defer b.close()
	ctx := context.Background()
	for _, c := range []struct{ sql, want string }{
		{"COPY events TO '/tmp/x.csv'", "file system operations are disabled"}, // refused as it is bound
		{"ATTACH '/tmp/other.duckdb' AS o", "read-only console"},
		{"INSTALL httpfs", "read-only console"},
		{"LOAD httpfs", "read-only console"},
		{"SET enable_external_access = true", "read-only console"},
		{"DROP TABLE events", "read-only console"},
		{"SELECT 1; DROP TABLE events", "one statement at a time"},
		// DuckDB parses the statement: a typo gets its parser error, a
		// missing table its catalog error, not the read-only refusal.
		{"SELEC 1", `Parser Error: syntax error at or near "SELEC"`},
		{"SELECT * FROM nosuch", "Table with name nosuch does not exist"},
		{"ATTACH 'x.duckdb' AS o (READ_ONLY)", "read-only console"},
		{"SELECT * FROM read_csv('/etc/passwd')", "disabled"},
		{"SELECT * FROM '/etc/passwd'", "does not exist"}, // files are not scanned by name
		{"FROM read_text('/etc/passwd')", "disabled"},
		{"SELECT * FROM read_parquet('https://example.com/x.parquet')", "disabled"},
		{"WITH t AS (SELECT 1) SELECT * FROM glob('/etc/*')", "disabled"},
	} {
		_, err := b.query(ctx, c.sql)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want one saying %q", c.sql, err, c.want)
		}
	}
	res, err := b.query(ctx, "SELECT count(*) FROM events")
	if err != nil || len(res.rows) != 1 || res.rows[0][0] != "6995" {
		t.Errorf("a plain read: %v %+v", err, res)
	}
	// Every statement of the lockdown took effect, the lock last: even a
	// statement past the console's check could not turn access back on.
	res, err = b.query(ctx, `SELECT current_setting('autoinstall_known_extensions'), current_setting('autoload_known_extensions'),
		current_setting('enable_external_access'), current_setting('lock_configuration')`)
	if err != nil || strings.Join(res.rows[0], " ") != "false false false true" {
		t.Errorf("settings: %v %+v", err, res)
	}
	c, err := b.sqlConnection(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ExecContext(ctx, "SET enable_external_access = true"); err == nil || !strings.Contains(err.Error(), "locked") {
		t.Errorf("unlocking: err = %v, want one saying the configuration is locked", err)
	}
	// A second console on the same database finds the lockdown in force
	// (it cannot set it again) and works, still locked down.
	b2 := &backend{db: db}
	defer b2.close()
	if res, err := b2.query(ctx, "SELECT count(*) FROM events"); err != nil || res.rows[0][0] != "6995" {
		t.Errorf("a second console: %v %+v", err, res)
	}
	if _, err := b2.query(ctx, "SELECT * FROM read_csv('/etc/passwd')"); err == nil || !strings.Contains(err.Error(), "disabled") {
		t.Errorf("a second console read a file: %v", err)
	}
}

// On entering the console the input has focus and is empty: what is typed
// is the query, keys that are shortcuts elsewhere (2 switches views, e
// exports, q quits) are text, enter runs it, and the focus stays for the
// next query.
func TestConsoleFocusRules(t *testing.T) {
	db := sampleDB(t)
	keys := append([]string{"7"}, typed("select 2 as e, 'q' as q")...)
	m, out := settle(t, db, append(keys, "enter")...)
	if m.tab != viewSQL || !m.sql.input.focused() || m.sql.input.value() != "select 2 as e, 'q' as q" {
		t.Fatalf("tab %d focused %v value %q", m.tab, m.sql.input.focused(), m.sql.input.value())
	}
	if m.sql.err != nil || m.sql.res == nil || len(m.sql.res.rows) != 1 || m.sql.res.rows[0][0] != "2" || m.sql.res.rows[0][1] != "q" {
		t.Fatalf("result %+v err %v\n%s", m.sql.res, m.sql.err, out)
	}
	if m.sh.status != "" || strings.Contains(out, "exported") {
		t.Fatalf("a typed e reached the export shortcut: %q", m.sh.status)
	}
	// ctrl+w deletes a word, ctrl+u the whole line before the cursor.
	m, _ = settle(t, db, append(append([]string{"7"}, typed("select 1 from runs")...), "ctrl+w")...)
	if got := m.sql.input.value(); got != "select 1 from " {
		t.Fatalf("ctrl+w: %q", got)
	}
	m, out = settle(t, db, append(append([]string{"7"}, typed("select 1")...), "ctrl+u")...)
	if got := m.sql.input.value(); got != "" || !strings.Contains(out, "sql> SELECT type") {
		t.Fatalf("ctrl+u: %q; placeholder missing:\n%s", got, out)
	}
	// ↑ recalls earlier statements, ↓ returns to what was being typed.
	keys = append([]string{"7"}, typed("select 1")...)
	keys = append(keys, "enter", "ctrl+u")
	keys = append(keys, typed("select 22")...)
	keys = append(keys, "enter", "ctrl+u", "s", "up")
	m, _ = settle(t, db, keys...)
	if got := m.sql.input.value(); got != "select 22" {
		t.Fatalf("up once: %q", got)
	}
	m, _ = settle(t, db, append(keys, "up", "up")...)
	if got := m.sql.input.value(); got != "select 1" {
		t.Fatalf("up three times: %q", got)
	}
	m, _ = settle(t, db, append(keys, "up", "down", "down")...)
	if got := m.sql.input.value(); got != "s" {
		t.Fatalf("back down to the draft: %q", got)
	}
	// esc leaves the input: now the keys are shortcuts again.
	m, _ = settle(t, db, "7", "esc", "2")
	if m.tab != viewLatency {
		t.Fatalf("after esc, 2 should switch to latency: tab %d", m.tab)
	}
	// The runs filter: while it has focus, m and 2 are text, not the
	// quick filter and the view switch.
	m, _ = settle(t, db, "4", "/", "m", "2")
	if m.tab != viewRuns || m.runs.filter.Quick != "" || m.runs.filter.Text != "m2" || !m.runs.input.focused() {
		t.Fatalf("runs filter: tab %d filter %+v", m.tab, m.runs.filter)
	}
	m, _ = settle(t, db, "4", "/", "x", "enter", "m")
	if m.runs.input.focused() || m.runs.filter.Quick != "masked" || m.runs.filter.Text != "x" {
		t.Fatalf("enter leaves the filter: %+v focused %v", m.runs.filter, m.runs.input.focused())
	}
}

// esc or ctrl+c while a statement runs interrupts DuckDB: the console says
// it was cancelled at once instead of running on for minutes, and ctrl+c
// does not quit the dashboard then.
func TestConsoleCancel(t *testing.T) {
	db := sampleDB(t)
	long := typed("SELECT sum(a.range * b.range) FROM range(100000000) a, range(1000000) b")
	for _, k := range []string{"esc", "ctrl+c"} {
		keys := append(append([]string{"7"}, long...), "enter", k)
		m, out := settle(t, db, keys...)
		if !errors.Is(m.sql.err, context.Canceled) || m.sql.running() || !strings.Contains(out, "cancelled: SELECT sum(") {
			t.Fatalf("%s on a running query: err %v\n%s", k, m.sql.err, out)
		}
	}
}

// An error wraps at the screen's width instead of being cut there.
func TestConsoleErrorWraps(t *testing.T) {
	db := sampleDB(t)
	name := "no_such_table_whose_name_is_long_enough_to_pass_the_edge_of_the_screen"
	msgs := []tea.Msg{press("7")}
	for _, k := range append(typed("SELECT * FROM "+name), "enter") {
		msgs = append(msgs, press(k))
	}
	_, out := settleAt(t, db, 80, 24, msgs...)
	joined := strings.Join(strings.Fields(out), " ")
	if !strings.Contains(joined, name+" does not exist") {
		t.Fatalf("the error is cut:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if len([]rune(strings.TrimRight(l, " "))) > 80 {
			t.Fatalf("a line wider than 80 columns: %q", l)
		}
	}
}
