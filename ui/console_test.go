package ui

import (
	"context"
	"strings"
	"testing"
)

// The SQL console is read-only with external access off and configuration
// locked: each of these fails with a clear message, and a plain read works.
func TestConsoleLockedDown(t *testing.T) {
	db := sampleDB(t)
	b := &backend{db: db}
	defer b.close()
	ctx := context.Background()
	for _, c := range []struct{ sql, want string }{
		{"COPY events TO '/tmp/x.csv'", "read-only console"},
		{"ATTACH '/tmp/other.duckdb' AS o", "read-only console"},
		{"INSTALL httpfs", "read-only console"},
		{"LOAD httpfs", "read-only console"},
		{"SET enable_external_access = true", "read-only console"},
		{"DROP TABLE events", "read-only console"},
		{"SELECT 1; DROP TABLE events", "one statement at a time"},
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
}
