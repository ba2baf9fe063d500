package ingest

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/faultlens/faultlens/store"
)

// tempDirInputs writes one input of each kind that needs a temporary file
// (gzip JSON Lines, Parquet, Arrow by the Parquet copy and by JSON lines)
// and returns their paths.
func tempDirInputs(t *testing.T) []string {
	dir := t.TempDir()
	gz := writeGzip(t, dir, "a.jsonl.gz", strings.ReplaceAll(lines(goodLines...), `"r1"`, `"r-gz"`))
	pq := writeParquet(t, dir, "b.parquet",
		`SELECT 'run' AS type, 'r-pq' AS run_id, '2026-11-28T02:00:00Z' AS ts, 's' AS suite, '2026-11-28T02:00:00Z' AS started_at`)
	arr := filepath.Join("testdata", "arrow", "good.arrow")
	fs := CanonicalArrowSchema.Fields()
	for i := range fs {
		if fs[i].Name == "run_id" {
			fs[i].Type = arrow.BinaryTypes.StringView // the JSON lines route
		}
	}
	view := filepath.Join(dir, "view.arrow")
	rl := strings.ReplaceAll(runLine, `"r1"`, `"r-view"`)
	if err := os.WriteFile(view, encodeArrow(t, arrow.NewSchema(fs, nil), []string{rl}, false), 0o644); err != nil {
		t.Fatal(err)
	}
	return []string{gz, pq, arr, view}
}

// TestTempFilesUnderTempDir: with Options.TempDir set (--temp-dir), no
// input writes a temporary file anywhere else. The system temp dir is made
// a path that does not exist, so any file created there fails the ingest;
// without TempDir the same inputs do fail, which shows they need one.
func TestTempFilesUnderTempDir(t *testing.T) {
	inputs := tempDirInputs(t)
	db := openDB(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", filepath.Join(tmp, "missing"))

	rs, err := Files(context.Background(), db, inputs, Options{TempDir: tmp})
	if err != nil {
		t.Fatal(err)
	}
	var accepted []int64
	for _, r := range rs {
		accepted = append(accepted, r.Accepted)
	}
	if want := []int64{6, 1, 3, 1}; !slices.Equal(accepted, want) {
		t.Errorf("accepted %v, want %v", accepted, want)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("temporary files left in --temp-dir: %v", left)
	}

	for _, in := range inputs {
		if _, err := File(context.Background(), openDB2(t, tmp), in, Options{}); err == nil {
			t.Errorf("%s: ingested without a temp dir though the system one does not exist", filepath.Base(in))
		}
	}
}

// openDB2 is openDB with DuckDB's spill directory in dir, for a test whose
// system temp dir does not exist.
func openDB2(t *testing.T, dir string) *sql.DB {
	t.Helper()
	db, err := store.Open(context.Background(), "", store.Limits{Threads: 2, TempDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeQuietly(db) })
	return db
}
