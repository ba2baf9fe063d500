package ingest

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/faultlens/faultlens/store"
)

// The prescan chooses the first route once, and the route switches are
// options: a clean file goes typed, one with a few bad lines split, one
// with a BOM (suspect) line by line, and each switch sends a file where the
// next route would.
func TestFirstRoute(t *testing.T) {
	clean := scan{lines: 10}
	split := scan{lines: 100, jsonLines: 1, others: []int64{7}}
	cases := []struct {
		name string
		sc   scan
		rt   Routes
		want jsonlRoute
	}{
		{"clean", clean, Routes{}, routeTyped},
		{"clean, typed off", clean, Routes{NoTyped: true}, routeJSON},
		{"a few odd lines", split, Routes{}, routeSplit},
		{"a few odd lines, split off", split, Routes{NoSplit: true}, routeJSON},
		{"a few odd lines, typed off", split, Routes{NoTyped: true}, routeJSON},
		{"suspect", scan{lines: 10, suspect: true}, Routes{}, routePrecise},
		{"malformed", scan{lines: 100, malformed: 20, others: make([]int64, 20)}, Routes{}, routePrecise},
	}
	for _, c := range cases {
		if got := firstRoute(&c.sc, c.rt); got != c.want {
			t.Errorf("%s: route %d, want %d", c.name, got, c.want)
		}
	}
	if routeTyped.next() != routeJSON || routeJSON.next() != routePrecise || routeSplit.next() != routePrecise {
		t.Error("a file the typed read refuses is judged the JSON way; any other goes line by line")
	}
}

// readOnlyDB is a faultlens database file opened for reading only: every
// write fails, as on a read-only mount.
func readOnlyDB(t *testing.T) *sql.DB {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ro.duckdb")
	ctx := context.Background()
	db, err := store.Open(ctx, path, store.Limits{Threads: 2, TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	closeQuietly(db)
	ro, err := store.OpenReadOnly(ctx, path, store.Limits{Threads: 2, TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeQuietly(ro) })
	return ro
}

// A database that cannot be written fails a file on its first route with a
// typed cause (store.ErrReadOnly), not an *InputError: it once went on to
// the JSON way and then line by line, each failing the same way, and the
// file was blamed.
func TestMachineErrorDoesNotFallThrough(t *testing.T) {
	ro := readOnlyDB(t)
	good := strings.Repeat(`{"type":"run","run_id":"r1","ts":"2026-11-28T02:00:00.000Z","seq":1,"schema_version":1,"suite":"s"}`+"\n", 1)
	path := writeFile(t, t.TempDir(), "a.jsonl", good)
	res, err := File(context.Background(), ro, path, Options{})
	var in *InputError
	if !errors.Is(err, store.ErrReadOnly) || errors.As(err, &in) {
		t.Fatalf("error %v (InputError %v), want store.ErrReadOnly and no InputError", err, errors.As(err, &in))
	}
	if res.routes != 1 {
		t.Errorf("tried on %d routes, want 1", res.routes)
	}
}

// A batch of small files on a database that cannot be written fails whole
// with the typed cause, instead of being retried file by file.
func TestMachineErrorFailsTheBatch(t *testing.T) {
	ro := readOnlyDB(t)
	dir := t.TempDir()
	var paths []string
	for i, id := range []string{"r1", "r2", "r3"} {
		line := `{"type":"run","run_id":"` + id + `","ts":"2026-11-28T02:00:00.000Z","seq":1,"schema_version":1,"suite":"s"}` + "\n"
		paths = append(paths, writeFile(t, dir, string(rune('a'+i))+".jsonl", line))
	}
	before := batchesStored.Load()
	rs, err := Files(context.Background(), ro, paths, Options{})
	var in *InputError
	if !errors.Is(err, store.ErrReadOnly) || errors.As(err, &in) || len(rs) != 0 {
		t.Fatalf("results %d, error %v; want none and store.ErrReadOnly", len(rs), err)
	}
	if batchesStored.Load() != before {
		t.Error("a batch was stored on a read-only database")
	}
}
