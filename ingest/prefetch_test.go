package ingest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// pipelined makes every file but the first of a Files call a prefetch
// candidate and no file a batch member, for the test; it restores both.
func pipelined(t *testing.T) {
	t.Helper()
	minBytes, batchLines := prefetchMinBytes, BatchLines
	prefetchMinBytes, BatchLines = 0, 4
	t.Cleanup(func() { prefetchMinBytes, BatchLines = minBytes, batchLines })
}

// serially runs fn with pipelining off.
func serially(fn func()) {
	defer func(v bool) { prefetchOff = v }(prefetchOff)
	prefetchOff = true
	fn()
}

// filesRun is what one Files call did: its results (Elapsed zeroed), the
// paths Progress was told in order, its error and the tables after it.
type filesRun struct {
	results  []FileResult
	progress []string
	err      string
	tables   string
	events   []string
	rejected map[string][]rejection
}

// runFiles ingests paths with Files into a fresh database; cancelAfter > 0
// cancels the context once Progress has been told that many files.
func runFiles(t *testing.T, paths []string, tmpDir string, cancelAfter int) filesRun {
	t.Helper()
	db := openDB(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var run filesRun
	opts := Options{TempDir: tmpDir, Progress: func(r FileResult) {
		run.progress = append(run.progress, r.Path)
		if len(run.progress) == cancelAfter {
			cancel()
		}
	}}
	rs, err := Files(ctx, db, paths, opts)
	for _, r := range rs {
		r.Elapsed = 0
		run.results = append(run.results, r)
	}
	if err != nil {
		run.err = err.Error()
	}
	run.tables = snapshot(t, db)
	run.events = storedEvents(t, db)
	run.rejected = map[string][]rejection{}
	for _, p := range paths {
		run.rejected[p] = rejections(t, db, p)
	}
	return run
}

// sameRun fails the test unless the pipelined run did exactly what the
// serial one did.
func sameRun(t *testing.T, got, want filesRun) {
	t.Helper()
	if !reflect.DeepEqual(got.results, want.results) {
		t.Errorf("results differ:\n pipelined %+v\n serial    %+v", got.results, want.results)
	}
	if !reflect.DeepEqual(got.progress, want.progress) {
		t.Errorf("progress %v, serial %v", got.progress, want.progress)
	}
	if got.err != want.err {
		t.Errorf("error %q, serial %q", got.err, want.err)
	}
	if got.tables != want.tables {
		t.Errorf("tables %s, serial %s", got.tables, want.tables)
	}
	if !reflect.DeepEqual(got.events, want.events) {
		t.Errorf("stored events differ (%d against %d)", len(got.events), len(want.events))
	}
	if !reflect.DeepEqual(got.rejected, want.rejected) {
		t.Errorf("rejected lines %v, serial %v", got.rejected, want.rejected)
	}
}

// noTempLeft fails the test when ingest left a temporary file in dir.
func noTempLeft(t *testing.T, dir string) {
	t.Helper()
	left, err := filepath.Glob(filepath.Join(dir, "faultlens-*"))
	if err != nil || len(left) > 0 {
		t.Errorf("temporary files left: %v (%v)", left, err)
	}
}

// withBadLines cuts every 50th line of content in half.
func withBadLines(content string) string {
	ls := strings.Split(strings.TrimSuffix(content, "\n"), "\n")
	for i := 49; i < len(ls); i += 50 {
		ls[i] = ls[i][:len(ls[i])/2]
	}
	return strings.Join(ls, "\n") + "\n"
}

// TestFilesPipelinedMatchesSerial ingests five files, each prefetched while
// the one before it is stored: a clean one, one with 2 % bad lines (the
// split route), a gzip file, a copy of the first (skipped as a duplicate)
// and one with a value of another type (the split route), and checks that
// results, their order, progress and the stored tables are exactly those
// of the serial order, and that files 2 to 5 used their prefetch.
func TestFilesPipelinedMatchesSerial(t *testing.T) {
	pipelined(t)
	dir := t.TempDir()
	clean := generated(t, 600, 1)
	paths := []string{
		writeFile(t, dir, "a.jsonl", clean),
		writeFile(t, dir, "b.jsonl", withBadLines(generated(t, 500, 2))),
		writeGzip(t, dir, "c.jsonl.gz", generated(t, 400, 3)),
		writeFile(t, dir, "d.jsonl", clean),
		writeFile(t, dir, "e.jsonl", generated(t, 300, 4)+replace(runLine, "suite", "42")+"\n"),
	}
	tmp := t.TempDir()
	var want filesRun
	serially(func() { want = runFiles(t, paths, tmp, 0) })
	started, used := prefetchesStarted.Load(), prefetchesUsed.Load()
	got := runFiles(t, paths, tmp, 0)
	if n := prefetchesUsed.Load() - used; n != 4 {
		t.Errorf("%d prefetched scans used, want 4", n)
	}
	if n := prefetchesStarted.Load() - started; n != 4 {
		t.Errorf("%d prefetches started, want 4", n)
	}
	sameRun(t, got, want)
	if len(got.results) != 5 || got.results[3].Duplicate != paths[0] || !got.results[1].typedRead || got.results[1].Rejected != 10 ||
		got.results[4].Rejected != 1 || got.err != "" {
		t.Errorf("not the routes the test means: %+v, %s", got.results, got.err)
	}
	noTempLeft(t, tmp)
}

// TestFilesPrefetchErrorAfterCommit: the prescan of file 2 (a truncated
// gzip file) fails while file 1 is stored. File 1 is still committed and
// reported, then Files stops at file 2 with the serial order's error, and
// file 3 is neither read nor prefetched.
func TestFilesPrefetchErrorAfterCommit(t *testing.T) {
	pipelined(t)
	dir := t.TempDir()
	gz := writeGzip(t, dir, "b.jsonl.gz", generated(t, 400, 2))
	content, err := os.ReadFile(gz)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(gz, content[:len(content)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	paths := []string{writeFile(t, dir, "a.jsonl", generated(t, 500, 1)), gz, writeFile(t, dir, "c.jsonl", generated(t, 300, 3))}
	tmp := t.TempDir()
	var want filesRun
	serially(func() { want = runFiles(t, paths, tmp, 0) })
	started, used := prefetchesStarted.Load(), prefetchesUsed.Load()
	got := runFiles(t, paths, tmp, 0)
	if s, u := prefetchesStarted.Load()-started, prefetchesUsed.Load()-used; s != 1 || u != 0 {
		t.Errorf("%d prefetches started, %d used; want 1 and 0", s, u)
	}
	sameRun(t, got, want)
	if len(got.results) != 1 || got.results[0].Accepted != 500 || !strings.Contains(got.err, "corrupt gzip") ||
		got.tables != "files=1 events=500 rejected=0" {
		t.Errorf("results %+v, error %q, tables %s", got.results, got.err, got.tables)
	}
	noTempLeft(t, tmp)
}

// TestFilesCancelledWhilePrefetching cancels the context once file 1 is
// reported, with file 2's prefetch (a gzip file, decompressed into the
// temp dir) started: Files stops as the serial order does and leaves no
// temporary file behind.
func TestFilesCancelledWhilePrefetching(t *testing.T) {
	pipelined(t)
	dir := t.TempDir()
	paths := []string{
		writeFile(t, dir, "a.jsonl", generated(t, 500, 1)),
		writeGzip(t, dir, "b.jsonl.gz", generated(t, 3000, 2)),
		writeFile(t, dir, "c.jsonl", generated(t, 300, 3)),
	}
	tmp := t.TempDir()
	var want filesRun
	serially(func() { want = runFiles(t, paths, tmp, 1) })
	got := runFiles(t, paths, tmp, 1)
	sameRun(t, got, want)
	if len(got.results) != 1 || !strings.Contains(got.err, context.Canceled.Error()) {
		t.Errorf("results %+v, error %q", got.results, got.err)
	}
	noTempLeft(t, tmp)
}

// TestPrefetchStopsOnCancel: a prefetch whose context is done stops at its
// next read with the context's error and removes its temporary file; a
// discarded one waits for its goroutine and removes it too.
func TestPrefetchStopsOnCancel(t *testing.T) {
	pipelined(t)
	dir, tmp := t.TempDir(), t.TempDir()
	gz := writeGzip(t, dir, "b.jsonl.gz", generated(t, 3000, 2))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := startPrefetch(ctx, gz, tmp)
	if p == nil {
		t.Fatal("not prefetched")
	}
	<-p.done
	if !errors.Is(p.err, context.Canceled) || p.usable(gz) {
		t.Errorf("prefetch after cancel: err %v, usable %v", p.err, p.usable(gz))
	}
	noTempLeft(t, tmp)

	p = startPrefetch(context.Background(), gz, tmp)
	p.discard()
	p.discard() // twice is fine
	noTempLeft(t, tmp)
}

// TestPrefetchOfChangedFile: a file rewritten after its prefetch is
// scanned again, so the scan the ingest uses is of the content it reads.
func TestPrefetchOfChangedFile(t *testing.T) {
	pipelined(t)
	dir := t.TempDir()
	path := writeFile(t, dir, "a.jsonl", generated(t, 300, 1))
	p := startPrefetch(context.Background(), path, "")
	<-p.done
	changed := generated(t, 200, 2)
	writeFile(t, dir, "a.jsonl", changed)
	_, cleanup, sc, took, err := p.scan(path, "")
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	if sc.sha256 != sha(changed) || sc.lines != 200 || took != 0 {
		t.Errorf("scan of the changed file: %s, %d lines, took %v; want %s, 200 lines, 0", sc.sha256, sc.lines, took, sha(changed))
	}
}
