package cli

import (
	"bytes"
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2"
)

// A database written by a newer faultlens is refused by every command that
// opens --db, with exit 2 and the versions, and is never rewritten
// (issue 15.3).
func TestEveryCommandRefusesNewerDatabase(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "t.duckdb")
	run(t, "simulate", "--out", filepath.Join(dir, "n"), "--suite", "s", "--runs", "3")
	run(t, "ingest", "--db", db, filepath.Join(dir, "n"))
	bump := func(v string) {
		t.Helper()
		h, err := sql.Open("duckdb", db)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = h.Close() }() // the test's own handle on a scratch file
		if _, err := h.Exec("UPDATE faultlens_meta SET value = ? WHERE key = 'schema_version'", v); err != nil {
			t.Fatal(err)
		}
	}
	bump("7")
	want := "faultlens: database " + db + ": database written by a newer faultlens (schema 7, this binary reads up to 2)\n"
	for _, args := range [][]string{
		{"ingest", "--db", db, filepath.Join(dir, "n")},
		{"report", "--db", db},
		{"rejected", "--db", db},
		{"compare", "--db", db, "--baseline", "s", "--candidate", "s"},
		{"history", "--db", db},
		{"export", "--db", db, "--format", "jsonl", "--out", filepath.Join(dir, "out.jsonl")},
		{"prune", "--db", db, "--older-than", "1d"},
		{"refresh", "--db", db},
		{"baseline", "save", "b", "--suite", "s", "--db", db, "--dir", filepath.Join(dir, "baselines")},
		{"ui", "--db", db},
	} {
		var out, errb bytes.Buffer
		code := Run(context.Background(), args, Streams{Out: &out, Err: &errb, In: strings.NewReader("")})
		if code != ExitUsage || errb.String() != want {
			t.Errorf("faultlens %s: exit %d, stderr %q; want 2, %q", strings.Join(args, " "), code, errb.String(), want)
		}
	}
	h, err := sql.Open("duckdb", db+"?access_mode=READ_ONLY")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = h.Close() }() // read-only
	var v string
	if err := h.QueryRow("SELECT value FROM faultlens_meta WHERE key = 'schema_version'").Scan(&v); err != nil {
		t.Fatal(err)
	}
	if v != "7" {
		t.Fatalf("a refusing command rewrote the version to %s", v)
	}
}
