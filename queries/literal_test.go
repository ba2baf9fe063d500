package queries_test

import (
	"database/sql"
	"strings"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2" // the engine the literals are for

	"github.com/faultlens/faultlens/queries"
)

// literalDB is an in-memory DuckDB for the literal tests.
func literalDB(t testing.TB) *sql.DB {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// wantLiteral is what DuckDB must read back from Literal(s): s itself when
// it is UTF-8, else s with each stray byte as U+FFFD.
func wantLiteral(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(r)
	}
	return b.String()
}

// roundTrip checks that Literal(s) is one SQL value equal to wantLiteral(s),
// alone, in an IN list (as the suite scoping uses it) and followed by a cast.
func roundTrip(t *testing.T, db *sql.DB, s string) {
	t.Helper()
	lit := queries.Literal(s)
	var got string
	var in, castOK bool
	q := "SELECT " + lit + ", " + lit + " IN (" + queries.Literals([]string{"x", s}) + "), " + lit + "::VARCHAR = " + lit
	if err := db.QueryRow(q).Scan(&got, &in, &castOK); err != nil {
		t.Fatalf("%q: %s: %v", s, q, err)
	}
	if want := wantLiteral(s); got != want || !in || !castOK {
		t.Fatalf("%q: read back %q (in list %v, cast %v), want %q", s, got, in, castOK, want)
	}
}

// A suite name holding NUL once cut the statement at the NUL ("unterminated
// quoted string"); quotes, NULs at either end, stray bytes and a lone quote
// all come back as they went in.
func TestLiteralRoundTrips(t *testing.T) {
	db := literalDB(t)
	for _, s := range []string{"", "'", "''", "it's", "bad\x00suite", "\x00", "\x00\x00'\x00", "a\nb",
		"\\x00", "\xff\xfe", "é\x00\xc3", "'); DROP TABLE events; --", "\u2028\u0085"} {
		roundTrip(t, db, s)
	}
}

// FuzzLiteral: every byte string becomes one SQL value that DuckDB reads
// back exactly (invalid UTF-8 as U+FFFD per byte), whatever quotes, NULs or
// SQL it holds.
func FuzzLiteral(f *testing.F) {
	for _, s := range []string{"", "a", "'", "\x00", "x\x00'y", "\xff", "';--"} {
		f.Add(s)
	}
	db := literalDB(f)
	f.Fuzz(func(t *testing.T, s string) { roundTrip(t, db, s) })
}
