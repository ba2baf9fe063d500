package metrics

import (
	"context"
	"testing"

	"github.com/faultlens/faultlens/internal/testdb"
)

// load ingests the given JSONL texts (a file each) into a fresh in-memory
// database and opens a metrics session on it.
func load(t *testing.T, files ...string) *Session {
	t.Helper()
	db := testdb.Store(t)
	testdb.Clean(t, testdb.Ingest(t, db, testdb.Files(t, files...)...))
	return testdb.Session(t, db, Open)
}

// report computes the report of a session, failing the test on error.
func report(t *testing.T, s *Session) *Report {
	t.Helper()
	r, err := s.Report(context.Background(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// suite returns the named suite of r.
func suiteOf(t *testing.T, r *Report, name string) Suite {
	t.Helper()
	for _, s := range r.Suites {
		if s.Suite == name {
			return s
		}
	}
	t.Fatalf("no suite %q in report", name)
	return Suite{}
}

// rate asserts a rate's numerator and denominator.
func wantRate(t *testing.T, name string, got Rate, num, den int64) {
	t.Helper()
	if got.Num != num || got.Den != den {
		t.Errorf("%s = %d/%d, want %d/%d", name, got.Num, got.Den, num, den)
	}
}

// closeOK closes c and fails the test if that fails (a test's database or
// session closing badly is worth knowing about).
var closeOK = testdb.CloseOK
