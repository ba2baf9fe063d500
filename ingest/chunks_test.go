package ingest

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestChunkedPreciseMatchesWhole forces the line-precise path to validate a
// file 60 lines at a time and checks that it keeps and rejects exactly
// what one chunk does: every 50th line broken, and events repeated across
// chunk boundaries (the first copy kept, the later ones rejected as
// duplicates with their own line numbers).
func TestChunkedPreciseMatchesWhole(t *testing.T) {
	lines := strings.SplitAfter(generated(t, 400, 3), "\n")
	lines = lines[:len(lines)-1] // the empty string after the last newline
	for i := 49; i < len(lines); i += 50 {
		lines[i] = "{\"type\":\"stage\"\n"
	}
	// Line 401 repeats line 2, 402 repeats 3 (seven chunks apart),
	// and line 403 repeats the line before it.
	lines = append(lines, lines[1], lines[2], lines[2])
	dir := t.TempDir()
	path := writeFile(t, dir, "f.jsonl", strings.Join(lines, ""))

	ingestWith := func(chunk int64) (FileResult, []rejection, string) {
		old := ChunkLines
		ChunkLines = chunk
		defer func() { ChunkLines = old }()
		db := openDB(t)
		res, err := File(context.Background(), db, path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		res.Elapsed = 0
		return res, rejections(t, db, path), strings.Join(queryStrings(t, db,
			"SELECT type || ' ' || run_id || ' ' || coalesce(call_id, stage_id, evidence_id, '') FROM events ORDER BY ALL"), "\n")
	}
	whole, wholeRej, wholeEvents := ingestWith(1 << 40)
	chunked, chunkedRej, chunkedEvents := ingestWith(60)
	if whole.FastPath || chunked.FastPath {
		t.Fatal("the file went the fast path")
	}
	if whole != chunked {
		t.Errorf("chunked result %+v\nwhole          %+v", chunked, whole)
	}
	if len(wholeRej) != 8+3 || wholeRej[8].Line != 401 || wholeRej[10].Line != 403 {
		t.Errorf("rejections %v, want lines 50, 100, ... 400 and the duplicates 401-403", wholeRej)
	}
	if fmt.Sprint(chunkedRej) != fmt.Sprint(wholeRej) {
		t.Errorf("chunked rejections %v\nwhole              %v", chunkedRej, wholeRej)
	}
	if chunkedEvents != wholeEvents {
		t.Error("chunked ingest stored other events than the whole one")
	}
}
