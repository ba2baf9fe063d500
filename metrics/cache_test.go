package metrics

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/faultlens/faultlens/internal/testdb"
)

// splitSample writes the baseline sample as two files cut in the middle, so
// that some runs have events in both (a run split over two files).
func splitSample(t *testing.T) (first, second string) {
	t.Helper()
	b, err := os.ReadFile("../sample-traces/baseline.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	dir := t.TempDir()
	first, second = filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	if err := os.WriteFile(first, []byte(strings.Join(lines[:1500], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(second, []byte(strings.Join(lines[1500:], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	return first, second
}

// A file committed after the cache was written (the command crashed before
// its refresh, or a later file failed) must never leave the report stale:
// the row is detected as stale on read, and the next Freshen recomputes
// exactly the suites the new files touch.
func TestCacheNeverStale(t *testing.T) {
	ctx := context.Background()
	db := testdb.Store(t)
	first, second := splitSample(t)
	ingestOrFail := func(paths ...string) {
		t.Helper()
		testdb.Ingest(t, db, paths...)
	}
	freshen := func(want ...string) {
		t.Helper()
		got, err := Freshen(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) && (len(got) > 0 || len(want) > 0) {
			t.Fatalf("Freshen recomputed %v, want %v", got, want)
		}
	}
	js := func(r *Report) string { b, _ := json.Marshal(r); return string(b) }
	clean := func() string {
		t.Helper()
		s, err := Open(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		defer closeOK(t, s)
		r, err := s.Report(ctx, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return js(r)
	}
	bySuite := func() *Report {
		t.Helper()
		r, err := ReportBySuite(ctx, db, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}

	ingestOrFail(first)
	freshen("baseline")
	freshen() // nothing new: a no-op
	partial := bySuite().Suites[0].Runs
	if partial == 0 || partial >= 200 {
		t.Fatalf("the first half holds %d runs; want some but not all 200", partial)
	}

	// The second half commits and the process "dies" before Freshen.
	ingestOrFail(second)
	if got := bySuite(); got.Suites[0].Runs != 200 || js(got) != clean() {
		t.Fatalf("after a file committed without a refresh the report shows %d runs (stale cache), want 200", got.Suites[0].Runs)
	}
	freshen("baseline")
	if js(bySuite()) != clean() {
		t.Fatal("after Freshen the cached report differs from a clean computation")
	}
	// Prove the fresh row is what is read now.
	if _, err := db.Exec(`UPDATE suite_metrics SET report = json_merge_patch(report, '{"runs": 999}') WHERE suite = 'baseline'`); err != nil {
		t.Fatal(err)
	}
	if got := bySuite(); got.Suites[0].Runs != 999 {
		t.Fatalf("a fresh cache row was not read: %d runs", got.Suites[0].Runs)
	}
	// Another suite's file leaves baseline's row alone (the tampered
	// value survives) and refreshes only candidate.
	ingestOrFail("../sample-traces/candidate.jsonl")
	freshen("candidate")
	if got := bySuite(); len(got.Suites) != 2 || got.Suites[0].Runs != 999 {
		t.Fatalf("baseline was recomputed for a file that does not touch it: %+v", got.Suites)
	}
}
