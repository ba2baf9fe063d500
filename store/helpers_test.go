package store

import (
	"database/sql"
	"io"
	"os"
	"testing"
)

// mustClose closes c, failing the test if that fails: a test's database
// handle that cannot close is a finding too.
func mustClose(t testing.TB, c io.Closer) {
	t.Helper()
	if err := c.Close(); err != nil {
		t.Error(err)
	}
}

// mustScan scans one row, failing the test on an error.
func mustScan(t testing.TB, row *sql.Row, dest ...any) {
	t.Helper()
	if err := row.Scan(dest...); err != nil {
		t.Fatal(err)
	}
}

// mustWrite writes a fixture file.
func mustWrite(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
