// Package testdb builds the databases that the tests of other packages
// evaluate: an in-memory store, trace files (the bundled sample-traces/ or
// a test's own fixtures) ingested into it, and a metrics session on it,
// each closed when the test ends.
//
// Only tests import it (it takes a testing.TB and fails the test on an
// error); no command links it. It does not import metrics, so that the
// metrics package's own tests can use it too: the session is opened with
// the function the caller passes (metrics.Open, or Open inside package
// metrics).
//
//	db := testdb.Samples(t)
//	s := testdb.Session(t, db, metrics.Open)
package testdb

import (
	"context"
	"database/sql"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/faultlens/faultlens/ingest"
	"github.com/faultlens/faultlens/store"
)

// Store opens an empty in-memory store with the default limits.
func Store(t testing.TB) *sql.DB {
	t.Helper()
	db, err := store.Open(context.Background(), "", store.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { CloseOK(t, db) })
	return db
}

// Ingest ingests the files into db in one ingest.Files call and returns
// the files' results; rejected lines are the caller's to judge (Clean).
func Ingest(t testing.TB, db *sql.DB, paths ...string) []ingest.FileResult {
	t.Helper()
	rs, err := ingest.Files(context.Background(), db, paths, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// Clean fails the test if a file had a rejected line or its counts do not
// add up (ingest.FileResult.Balanced): a fixture is meant to be valid.
func Clean(t testing.TB, rs []ingest.FileResult) {
	t.Helper()
	for _, r := range rs {
		if r.Rejected > 0 || !r.Balanced() {
			t.Fatalf("fixture %s: %d rejected lines: %+v", r.Path, r.Rejected, r)
		}
	}
}

// Load opens an in-memory store with the files ingested in one call.
func Load(t testing.TB, paths ...string) *sql.DB {
	t.Helper()
	db := Store(t)
	Ingest(t, db, paths...)
	return db
}

// Samples opens an in-memory store with the bundled nightly samples,
// sample-traces/baseline.jsonl and candidate.jsonl, ingested.
func Samples(t testing.TB) *sql.DB {
	t.Helper()
	return Load(t, SamplePath(t, "baseline.jsonl"), SamplePath(t, "candidate.jsonl"))
}

// SamplePath is the path of the bundled sample file name, relative to the
// test's directory (as a test would write it by hand: the path is stored
// with the file's rows, and reports may show it).
func SamplePath(t testing.TB, name string) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			rel, err := filepath.Rel(wd, filepath.Join(dir, "sample-traces", name))
			if err != nil {
				t.Fatal(err)
			}
			return rel
		}
		if filepath.Dir(dir) == dir {
			t.Fatalf("no go.mod above %s: the samples are found from the module's root", wd)
		}
	}
}

// Files writes each text to a file of its own in a new temporary
// directory, fa.jsonl, fb.jsonl, … in order, and returns their paths.
// Leading newlines are dropped, so a fixture may start on the line after
// its opening backquote.
func Files(t testing.TB, texts ...string) []string {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for i, text := range texts {
		p := filepath.Join(dir, "f"+string(rune('a'+i))+".jsonl")
		if err := os.WriteFile(p, []byte(strings.TrimLeft(text, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// Session opens a session on db with open (metrics.Open) and closes it
// when the test ends, before db.
func Session[S io.Closer](t testing.TB, db *sql.DB, open func(context.Context, *sql.DB) (S, error)) S {
	t.Helper()
	s, err := open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { CloseOK(t, s) })
	return s
}

// CloseOK closes c and fails the test if that fails: a test's database or
// session that cannot close is a finding too.
func CloseOK(t testing.TB, c io.Closer) {
	t.Helper()
	if err := c.Close(); err != nil {
		t.Error(err)
	}
}
