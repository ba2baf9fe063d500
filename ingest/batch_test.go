package ingest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// splitInto writes content as files of per lines each into dir, named
// f00.jsonl, f01.jsonl, ..., and returns their paths.
func splitInto(t testing.TB, dir, content string, per int) []string {
	t.Helper()
	ls := strings.SplitAfter(strings.TrimSuffix(content, "\n"), "\n")
	var paths []string
	for i := 0; i < len(ls); i += per {
		chunk := strings.Join(ls[i:min(i+per, len(ls))], "")
		if !strings.HasSuffix(chunk, "\n") {
			chunk += "\n"
		}
		paths = append(paths, writeFile(t, dir, fmt.Sprintf("f%02d.jsonl", len(paths)), chunk))
	}
	return paths
}

// fileRows renders the files table but for its time, in id order.
func fileRows(t testing.TB, db *sql.DB) []string {
	t.Helper()
	return queryStrings(t, db, `SELECT concat_ws(' ', file_id, path, sha256, format, bytes, lines, accepted, rejected, blank, skipped)
		FROM files ORDER BY file_id`)
}

// rejectedRows renders rejected_lines in file and line order.
func rejectedRows(t testing.TB, db *sql.DB) []string {
	t.Helper()
	return queryStrings(t, db, `SELECT concat_ws(' ', file_id, path, line_no, reason, text) FROM rejected_lines ORDER BY file_id, line_no`)
}

// oneByOne ingests paths with File, one at a time: the behaviour batching
// must keep.
func oneByOne(t testing.TB, paths []string) *sql.DB {
	t.Helper()
	db := openDB(t)
	for _, p := range paths {
		if _, err := File(context.Background(), db, p, Options{}); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
	}
	return db
}

// sameTables fails the test unless got and want hold the same files,
// events and rejected lines, ids included.
func sameTables(t *testing.T, got, want *sql.DB) {
	t.Helper()
	if g, w := fileRows(t, got), fileRows(t, want); !slices.Equal(g, w) {
		t.Errorf("files:\n got %q\nwant %q", g, w)
	}
	if g, w := rejectedRows(t, got), rejectedRows(t, want); !slices.Equal(g, w) {
		t.Errorf("rejected lines:\n got %q\nwant %q", g, w)
	}
	// Every event with the file it was stored for.
	events := `SELECT f.path || ' ' || e::VARCHAR AS row
		FROM (SELECT * FROM events) e JOIN files f USING (file_id) ORDER BY row`
	if g, w := queryStrings(t, got, events), queryStrings(t, want, events); !slices.Equal(g, w) {
		t.Errorf("events differ: %d stored, want %d", len(g), len(w))
	}
}

// TestBatchClean checks that clean small files are stored by the batch
// path, several batches deep, with each file's own id, row and accounting,
// exactly as one file at a time would store them.
func TestBatchClean(t *testing.T) {
	defer func(l int64, f int) { BatchLines, BatchFiles = l, f }(BatchLines, BatchFiles)
	BatchLines, BatchFiles = 1000, 4
	dir := t.TempDir()
	paths := splitInto(t, dir, generated(t, 1000, 3), 100)
	if len(paths) != 10 {
		t.Fatalf("%d files", len(paths))
	}
	paths = append(paths, writeGzip(t, dir, "g.jsonl.gz", lines(goodLines...)))
	db := openDB(t)
	before := batchesStored.Load()
	rs, err := Files(context.Background(), db, paths, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n := batchesStored.Load() - before; n != 3 {
		t.Errorf("%d batches stored, want 3 (4 + 4 + 3 files)", n)
	}
	if len(rs) != 11 {
		t.Fatalf("%d results", len(rs))
	}
	if r := rs[10]; r.FileID != 11 || !r.FastPath || r.Accepted != 6 {
		t.Errorf("gzip file: %+v", r)
	}
	checkBalanced(t, db, rs[10])
	for i, r := range rs[:10] {
		if r.Path != paths[i] || r.FileID != int64(i+1) || !r.FastPath || r.Lines != 100 || r.Accepted != 100 || r.Events != 100 || r.Rejected != 0 {
			t.Errorf("file %d: %+v", i, r)
		}
		checkBalanced(t, db, r)
	}
	sameTables(t, db, oneByOne(t, paths))
}

// TestBatchFallsBack checks that a batch holding a file the fast path
// cannot take whole (a malformed line, a wrong field, an event repeated
// from another file of the batch) goes one file at a time: every file is
// stored as it would be alone, each rejected line named by file and line.
func TestBatchFallsBack(t *testing.T) {
	dir := t.TempDir()
	paths := splitInto(t, dir, generated(t, 600, 5), 100)
	bad := writeFile(t, dir, "bad.jsonl", lines(runLine, "{", stageLine, replace(toolLine, "status", "true"), terminalLine))
	again := writeFile(t, dir, "again.jsonl", lines(stageLine, modelLine, evidenceLine))
	paths = append(paths[:3], append([]string{bad, again}, paths[3:]...)...)

	db := openDB(t)
	rs, err := Files(context.Background(), db, paths, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		checkBalanced(t, db, r)
	}
	if r := rs[3]; r.FastPath || r.Accepted != 3 || r.Rejected != 2 {
		t.Errorf("bad file: %+v", r)
	}
	if r := rs[4]; r.Accepted != 2 || r.Rejected != 1 {
		t.Errorf("file repeating an event: %+v", r)
	}
	want := []rejection{{2, "malformed json"}, {4, "wrong type for field status: expected string"}}
	if got := rejections(t, db, bad); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("bad file's rejections %v, want %v", got, want)
	}
	if got := rejections(t, db, again); fmt.Sprint(got) != fmt.Sprint([]rejection{{1, "duplicate event (same stage_id)"}}) {
		t.Errorf("repeating file's rejections %v", got)
	}
	sameTables(t, db, oneByOne(t, paths))
}

// TestBatchDuplicateContent checks at-most-once by content across and
// within batches: a copy in the same call is a duplicate of the first, a
// file stored by an earlier call is skipped, and gzip is the same content.
func TestBatchDuplicateContent(t *testing.T) {
	dir := t.TempDir()
	paths := splitInto(t, dir, generated(t, 300, 9), 100)
	content := lines(goodLines...)
	a := writeFile(t, dir, "a.jsonl", content)
	b := writeGzip(t, dir, "b.jsonl.gz", content)
	db := openDB(t)
	if _, err := Files(context.Background(), db, paths[:1], Options{}); err != nil {
		t.Fatal(err)
	}
	rs, err := Files(context.Background(), db, []string{paths[1], a, paths[0], b, paths[2]}, Options{Names: map[string]string{a: "named/a.jsonl"}})
	if err != nil {
		t.Fatal(err)
	}
	got := make([]string, len(rs))
	for i, r := range rs {
		dup := r.Duplicate
		if dup != "" {
			dup = filepath.Base(dup)
		}
		got[i] = fmt.Sprintf("%s dup=%q id=%d accepted=%d", filepath.Base(r.Path), dup, r.FileID, r.Accepted)
	}
	want := []string{
		`f01.jsonl dup="" id=2 accepted=100`,
		`a.jsonl dup="" id=3 accepted=6`,
		`f00.jsonl dup="f00.jsonl" id=0 accepted=0`,
		`b.jsonl.gz dup="a.jsonl" id=0 accepted=0`,
		`f02.jsonl dup="" id=4 accepted=100`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("results\n got %q\nwant %q", got, want)
	}
	if rs[1].Path != "named/a.jsonl" || rs[3].Duplicate != "named/a.jsonl" {
		t.Errorf("names: %q, duplicate of %q", rs[1].Path, rs[3].Duplicate)
	}
	if n := countRows(t, db, "events"); n != 306 {
		t.Errorf("%d events, want 306", n)
	}
}

// TestBatchStopsAtUnreadable checks that a file that cannot be read ends
// the ingest with an error naming it, after committing the files before it
// (held in a batch) and none after it.
func TestBatchStopsAtUnreadable(t *testing.T) {
	dir := t.TempDir()
	paths := splitInto(t, dir, generated(t, 300, 11), 100)
	missing := filepath.Join(dir, "missing.jsonl")
	db := openDB(t)
	rs, err := Files(context.Background(), db, []string{paths[0], paths[1], missing, paths[2]}, Options{})
	var ie *InputError
	if !errors.As(err, &ie) || ie.Path != missing {
		t.Fatalf("err = %v, want an *InputError naming %s", err, missing)
	}
	if len(rs) != 2 || rs[0].FileID != 1 || rs[1].FileID != 2 {
		t.Errorf("results %+v", rs)
	}
	if n := countRows(t, db, "events"); n != 200 {
		t.Errorf("%d events, want 200", n)
	}
}

// TestBatchBounds checks the bounds of one batch: files, lines, bytes, and
// no two files of the same content.
func TestBatchBounds(t *testing.T) {
	defer func(l int64, f int) { BatchLines, BatchFiles = l, f }(BatchLines, BatchFiles)
	BatchLines, BatchFiles = 100, 3
	file := func(sha string, lines, bytes int64) pending {
		return pending{res: FileResult{SHA256: sha, Lines: lines, Bytes: bytes}}
	}
	b := batch{maxBytes: 1000, maxFiles: BatchFiles}
	b.add(file("a", 40, 400))
	for _, c := range []struct {
		p    pending
		want bool
	}{
		{file("b", 60, 600), true},
		{file("b", 61, 600), false}, // lines
		{file("b", 60, 601), false}, // bytes
		{file("a", 1, 1), false},    // the same content
	} {
		if got := b.fits(c.p); got != c.want {
			t.Errorf("fits %+v = %v, want %v", c.p.res, got, c.want)
		}
	}
	b.add(file("b", 10, 10))
	b.add(file("c", 10, 10))
	if b.fits(file("d", 1, 1)) {
		t.Error("a fourth file fits a batch of at most 3")
	}
}

// A batch holds at most as many files as their reader's buffers (one of
// maximum_object_size each, however small the file) fit in a third of the
// memory limit: 800 tiny files at the default 1536 MB once took 44 s where
// 600 took 2.5 s.
func TestBatchFilesFollowMemory(t *testing.T) {
	for _, c := range []struct {
		limit int64
		want  int
	}{
		{1536 << 20, 511}, // the default: 512 MiB of buffers of 1 MiB + 1 byte
		{256 << 20, 85},
		{1 << 20, 1}, // always room for one
		{1 << 40, BatchFiles},
	} {
		if got := batchFiles(c.limit); got != c.want {
			t.Errorf("batchFiles(%d MiB) = %d, want %d", c.limit>>20, got, c.want)
		}
	}
	db := openDB(t)
	s, _, err := readLimits(context.Background(), db)
	limit, ok := parseDuckDBSize(s)
	if err != nil || !ok {
		t.Fatalf("memory limit %q: %v", s, err)
	}
	if b := newBatch(context.Background(), db); b.maxFiles != batchFiles(limit) || b.maxBytes != batchBytes(limit) || b.maxFiles < 400 {
		t.Errorf("batch bounds at the default limit %s: %d files, %d bytes", s, b.maxFiles, b.maxBytes)
	}
}
