package metrics

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/faultlens/faultlens/ingest"
	"github.com/faultlens/faultlens/internal/testdb"
	"github.com/faultlens/faultlens/store"
)

// The session's macros (grade_score, degraded_path) are TEMP, made on the
// session's connection: a database opened read-only, a dashboard's private
// copy and a writer's file all get them, and give the same evidence grades
// and evidence counts as each other.
func TestMacrosOnEveryKindOfDatabase(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "t.duckdb")
	db, err := store.Open(ctx, path, store.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{"../sample-traces/baseline.jsonl", "../sample-traces/candidate.jsonl"}
	if _, err := ingest.Files(ctx, db, paths, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	openers := map[string]func() (*sql.DB, error){
		"read-only": func() (*sql.DB, error) { return store.OpenReadOnly(ctx, path, store.Limits{}) },
		"scoped": func() (*sql.DB, error) {
			db, _, err := store.OpenScoped(ctx, path, store.Limits{}, nil)
			return db, err
		},
		"writer": func() (*sql.DB, error) { return store.Open(ctx, path, store.Limits{}) },
	}
	got := map[string]string{}
	for _, kind := range []string{"read-only", "scoped", "writer"} {
		db, err := openers[kind]()
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		s, err := Open(ctx, db)
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		rep, err := s.Report(ctx, Options{})
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		var b strings.Builder
		for _, st := range rep.Suites {
			for _, g := range st.EvidenceGrade {
				fmt.Fprintf(&b, "%s/%s: %d at %.4f; ", st.Suite, g.Path, g.Count, *g.MeanGrade)
			}
		}
		got[kind] = b.String()
		if err := s.Close(); err != nil {
			t.Error(err)
		}
		if err := db.Close(); err != nil {
			t.Error(err)
		}
	}
	// The samples' confirmed evidence (report/testdata/samples.json.golden).
	want := "baseline/direct: 386 at 3.0000; candidate/degraded: 31 at 1.0645; candidate/direct: 389 at 3.0000; "
	for kind, g := range got {
		if g != want {
			t.Errorf("%s: %s, want %s", kind, g, want)
		}
	}
}

// Close drops every table and view the session built, whatever their kind
// (span_facts and scoped_events are views or tables), from the connection
// that goes back to the pool.
func TestCloseDropsEverything(t *testing.T) {
	ctx := context.Background()
	db := testdb.Store(t)
	db.SetMaxOpenConns(1) // the next session's connection is this one
	temps := func() string {
		var names string
		err := db.QueryRow(`SELECT coalesce(string_agg(name, ' ' ORDER BY name), '') FROM (
			SELECT table_name AS name FROM duckdb_tables() WHERE temporary
			UNION ALL SELECT view_name FROM duckdb_views() WHERE temporary AND NOT internal)`).Scan(&names)
		if err != nil {
			t.Fatal(err)
		}
		return names
	}
	for _, suites := range [][]string{nil, {"a"}} {
		s, err := OpenSuites(ctx, db, suites)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if left := temps(); left != "" {
			t.Errorf("suites %v: left after Close: %s", suites, left)
		}
	}
}
