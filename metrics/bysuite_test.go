package metrics

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/faultlens/faultlens/internal/testdb"
)

// ReportBySuite equals the report over all suites at once; once the cache
// holds a suite it is read from there, and a row of another SQL version is
// ignored.
func TestReportBySuiteAndCache(t *testing.T) {
	ctx := context.Background()
	db := testdb.Samples(t)
	s, err := Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := s.Report(ctx, Options{})
	closeOK(t, s)
	if err != nil {
		t.Fatal(err)
	}
	js := func(r *Report) string { b, _ := json.Marshal(r); return string(b) }
	by, err := ReportBySuite(ctx, db, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if js(by) != js(whole) {
		t.Fatal("the report suite by suite differs from the report over all suites")
	}
	if err := RefreshCache(ctx, db, []string{"baseline", "candidate"}); err != nil {
		t.Fatal(err)
	}
	if by, _ = ReportBySuite(ctx, db, Options{}); js(by) != js(whole) {
		t.Fatal("the cached report differs from the computed one")
	}
	// Prove the cache is what is read: tamper with one row.
	if _, err := db.Exec(`UPDATE suite_metrics SET report = json_merge_patch(report, '{"runs": 999}') WHERE suite = 'baseline'`); err != nil {
		t.Fatal(err)
	}
	by, _ = ReportBySuite(ctx, db, Options{Suites: []string{"baseline"}})
	if len(by.Suites) != 1 || by.Suites[0].Runs != 999 {
		t.Fatalf("the cache was not read: %+v", by.Suites)
	}
	// A row written by another version of the metric SQL is not trusted.
	if _, err := db.Exec(`UPDATE suite_metrics SET metrics_version = 'older'`); err != nil {
		t.Fatal(err)
	}
	by, _ = ReportBySuite(ctx, db, Options{Suites: []string{"baseline"}})
	if len(by.Suites) != 1 || by.Suites[0].Runs != 200 {
		t.Fatalf("a stale cache row was used: %+v", by.Suites)
	}
}
