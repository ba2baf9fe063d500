package metrics

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/faultlens/faultlens/ingest"
	"github.com/faultlens/faultlens/store"
)

// load ingests the given JSONL text (one file) into a fresh in-memory
// database and opens a metrics session on it.
func load(t *testing.T, files ...string) *Session {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, "", store.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeOK(t, db) })
	dir := t.TempDir()
	var paths []string
	for i, text := range files {
		p := filepath.Join(dir, "f"+string(rune('a'+i))+".jsonl")
		if err := os.WriteFile(p, []byte(strings.TrimLeft(text, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	rs, err := ingest.Files(ctx, db, paths, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if r.Rejected > 0 {
			t.Fatalf("fixture %s: %d rejected lines", r.Path, r.Rejected)
		}
	}
	s, err := Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeOK(t, s) })
	return s
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
func closeOK(t testing.TB, c io.Closer) {
	t.Helper()
	if err := c.Close(); err != nil {
		t.Error(err)
	}
}
