package ingest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestArrowChunks cuts a file into Parquet chunks of 3 rows (encodeArrow
// writes batches of 2, so batches are split across chunks) in both IPC
// formats: every row keeps its number, rejected rows in any chunk carry
// their number and reason, a duplicate is found across chunks, and no
// chunk file is left behind.
func TestArrowChunks(t *testing.T) {
	defer func(n int64) { chunkRows = n }(chunkRows)
	chunkRows = 3
	rows := []string{
		runLine, stageLine, toolLine,
		strings.Replace(stageLine, `"planning"`, `"lunch"`, 1), modelLine, evidenceLine,
		strings.Replace(toolLine, `"c1"`, `"c2"`, 1), toolLine, `{"type":"terminal","run_id":"r1","ts":"2026-11-28T02:00:07Z"}`,
		terminalLine,
	}
	for _, stream := range []bool{false, true} {
		tmp := t.TempDir()
		path := filepath.Join(t.TempDir(), "chunks.arrow")
		if err := os.WriteFile(path, encodeArrow(t, CanonicalArrowSchema, rows, stream), 0o644); err != nil {
			t.Fatal(err)
		}
		db := openDB(t)
		res, err := ingestArrow(context.Background(), db, path, "chunks.arrow", tmp)
		if err != nil {
			t.Fatal(err)
		}
		res.Path = "chunks.arrow"
		checkBalanced(t, db, res)
		if res.Lines != 10 || res.Accepted != 7 || res.Rejected != 3 {
			t.Errorf("stream %v: result %+v, want 10 rows = 7 accepted + 3 rejected", stream, res)
		}
		got := rejections(t, db, "chunks.arrow")
		want := []rejection{{4, "invalid value for stage"}, {8, "duplicate event (same call_id)"}, {9, "missing field terminal"}}
		if len(got) != len(want) {
			t.Fatalf("stream %v: rejections %v, want %v", stream, got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("stream %v: rejection %d = %v, want %v", stream, i, got[i], want[i])
			}
		}
		if left, _ := filepath.Glob(filepath.Join(tmp, "*")); len(left) != 0 {
			t.Errorf("stream %v: left behind %v", stream, left)
		}
	}
}
