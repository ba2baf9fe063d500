package ingest

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/faultlens/faultlens/queries"
)

// Small JSON Lines files are ingested in batches: the fast
// path's one statement costs ~200 ms to plan and start whatever the file's
// size, so 10,000 files of 100 lines spent nearly all their time there. A
// batch is read by one read_ndjson_objects over its files, validated and
// inserted by one statement, and committed in one transaction; each file
// keeps its own id, files row, accounting and at-most-once hash. A batch
// that the fast path cannot take whole (a rejected line, a duplicate event)
// is rolled back and its files go one by one, exactly as without batching,
// so a killed ingest still leaves a prefix of whole files.

// BatchLines bounds the lines of one batch, and BatchFiles its files; a
// file of more than BatchLines/4 lines (or over smallFileBytes) goes alone.
// A batch's bytes are bounded too, by the memory limit (see batchBytes).
// Variables so that tests can force small batches. Measured on 10,000
// files of 100 lines (docs/scaling.md): batches of 500 files took ~1.5x
// the time of batches of 2,000, mostly in the COMMIT of each batch.
var (
	BatchLines int64 = 200000
	BatchFiles       = 2000
)

// smallFileBytes is the largest file (as stored, compressed or not) worth
// reading twice to find out whether it is small: larger ones go alone.
const smallFileBytes = 4 << 20

// pending is a small clean JSON Lines file waiting in a batch.
type pending struct {
	path    string // as given, for the one-by-one fallback (res.Path is its name)
	plain   string // the plain text to read (a temporary file for .gz)
	cleanup func()
	res     FileResult
	scan    time.Duration // time spent reading it before its batch
}

// batch is the small files read so far, in input order.
type batch struct {
	files    []pending
	lines    int64
	bytes    int64
	maxBytes int64 // see batchBytes
	maxFiles int   // see batchFiles
	shas     map[string]bool
}

// newBatch is an empty batch bounded by DuckDB's memory limit.
func newBatch(ctx context.Context, db *sql.DB) batch {
	limit := int64(256 << 20)
	if s, _, err := readLimits(ctx, db); err == nil {
		if n, ok := parseDuckDBSize(s); ok {
			limit = n
		}
	}
	return batch{maxBytes: batchBytes(limit), maxFiles: batchFiles(limit)}
}

// batchBytes is the most content one batch may hold: a sixteenth of
// DuckDB's memory limit. The validation of a batch needs memory in
// proportion to it (measured: 50,000 lines of ~350 bytes, 17 MB, ingest
// within --memory-limit 256MB; 200,000 lines, 70 MB, run out of it).
func batchBytes(limit int64) int64 { return limit / 16 }

// fileBuffer is the memory the batch's reader holds for each of its files,
// however small the file: a buffer of maximum_object_size (the longest
// line a batched file may hold). Measured, each file of a batch cost
// ~0.85 MB: at the default limit of 1536 MB a batch of 600 tiny files took
// 2.5 s and one of 800 took 44 s, spilling.
const fileBuffer = MaxLineBytes + 1

// batchFiles is the most files one batch may hold: their buffers within a
// third of the memory limit (512 files at the default 1536 MB), and never
// more than BatchFiles.
func batchFiles(limit int64) int {
	return int(max(1, min(int64(BatchFiles), limit/3/fileBuffer)))
}

// small prescans path and returns it as a batch member when it is a plain
// or gzipped JSON Lines file, small and clean enough for the fast path.
// Anything else (or any error) is left to File, which reports it.
func small(path string, opts Options) (pending, bool) {
	start := time.Now()
	if path == "-" {
		return pending{}, false
	}
	name := path
	if n, ok := opts.Names[path]; ok {
		name = n
	}
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() || st.Size() > smallFileBytes || formatOf(path) != "jsonl" {
		return pending{}, false
	}
	plain, cleanup, sc, err := readAndScan(path, opts.TempDir)
	if err != nil {
		return pending{}, false
	}
	if sc.suspect || sc.lines > BatchLines/4 {
		cleanup()
		return pending{}, false
	}
	res := FileResult{Path: name, Format: "jsonl", SHA256: sc.sha256, Bytes: sc.bytes, Lines: sc.lines, Blank: sc.blank}
	return pending{path: path, plain: plain, cleanup: cleanup, res: res, scan: time.Since(start)}, true
}

// fits reports whether p can join the batch: within its bounds, and not a
// copy of a file already in it (which must be seen as a duplicate of that
// file once it is committed).
func (b *batch) fits(p pending) bool {
	return len(b.files) < b.maxFiles && b.lines+p.res.Lines <= BatchLines && b.bytes+p.res.Bytes <= b.maxBytes &&
		!b.shas[p.res.SHA256]
}

func (b *batch) add(p pending) {
	if b.shas == nil {
		b.shas = map[string]bool{}
	}
	b.files = append(b.files, p)
	b.lines += p.res.Lines
	b.bytes += p.res.Bytes
	b.shas[p.res.SHA256] = true
}

// commit ingests the batch and empties it, returning the files' results in
// order. It stops at the first file that cannot be read at all, as Files
// does.
func (b *batch) commit(ctx context.Context, db *sql.DB, opts Options) ([]FileResult, error) {
	files := b.files
	*b = batch{maxBytes: b.maxBytes, maxFiles: b.maxFiles}
	defer func() {
		for _, p := range files {
			p.cleanup()
		}
	}()
	if len(files) == 0 {
		return nil, nil
	}
	start := time.Now()
	ok, err := commitBatch(ctx, db, files)
	if err != nil {
		return nil, err
	}
	if !ok {
		var out []FileResult
		for _, p := range files {
			r, err := File(ctx, db, p.path, opts)
			if err != nil {
				return out, err
			}
			out = append(out, r)
		}
		return out, nil
	}
	// The batch's statement is shared equally; each file keeps its prescan.
	share := time.Since(start) / time.Duration(len(files))
	out := make([]FileResult, len(files))
	for i, p := range files {
		p.res.Elapsed = p.scan + share
		out[i] = p.res
	}
	return out, nil
}

// commitBatch stores the files of a batch that are not already stored in
// one statement and one transaction, filling in their results. It reports
// false, having rolled back, when the fast path cannot take every file
// whole; an error is only one that is not the files' (the database's).
func commitBatch(ctx context.Context, db *sql.DB, files []pending) (bool, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return false, err
	}
	defer closeQuietly(conn)
	todo, err := markDuplicates(ctx, conn, files)
	if err != nil || len(todo) == 0 {
		return err == nil, err
	}
	restore, err := boundThreads(ctx, conn)
	if err != nil {
		return false, err
	}
	defer restore()
	plains := make([]string, len(todo))
	for i, p := range todo {
		plains[i] = p.plain
	}
	list := "[" + queries.Literals(plains) + "]"
	err = inTransaction(ctx, conn, func(base int64) error {
		src := queries.Render("ingest.batch_source", queries.Args{"paths": list, "base": strconv.FormatInt(base, 10),
			"max_object": strconv.Itoa(MaxLineBytes + 1)})
		rows := queries.Render("ingest.valid_or_fail", queries.Args{"checked": jsonChecked(src)})
		if _, err := conn.ExecContext(ctx, insertEventsAs(rows, extraJSON(), "file_id")); err != nil {
			return err
		}
		last := base + int64(len(todo)) - 1
		if err := batchCounts(ctx, conn, base, last, todo); err != nil {
			return err
		}
		var dups int64
		if err := conn.QueryRowContext(ctx, queries.Get("ingest.new_duplicates"), base, last).Scan(&dups); err != nil {
			return err
		}
		if dups > 0 {
			return errNotClean
		}
		return recordFiles(ctx, conn, base, todo)
	})
	// Only a batch that is not clean goes file by file; a full disk would
	// fail each file the same way.
	if err := refused(ctx, err); err != nil {
		return false, ignoreNotClean(err)
	}
	batchesStored.Add(1)
	return true, nil
}

// batchesStored counts the batches committed whole, for the tests.
var batchesStored atomic.Int64

// markDuplicates sets Duplicate on the files whose content is stored
// already and returns the others.
func markDuplicates(ctx context.Context, conn *sql.Conn, files []pending) ([]*pending, error) {
	shas := make([]string, len(files))
	for i, p := range files {
		shas[i] = p.res.SHA256
	}
	rows, err := conn.QueryContext(ctx, queries.Render("ingest.files_by_hash", queries.Args{"hashes": queries.Literals(shas)}))
	if err != nil {
		return nil, err
	}
	defer closeQuietly(rows)
	stored := map[string]string{}
	for rows.Next() {
		var sha, path string
		if err := rows.Scan(&sha, &path); err != nil {
			return nil, err
		}
		stored[sha] = path
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var todo []*pending
	for i := range files {
		if prev, ok := stored[files[i].res.SHA256]; ok {
			files[i].res.Duplicate = prev
			continue
		}
		todo = append(todo, &files[i])
	}
	return todo, nil
}

// batchCounts checks that every non-blank line of every file became one
// event of that file and sets the files' fast-path accounting.
func batchCounts(ctx context.Context, conn *sql.Conn, base, last int64, todo []*pending) error {
	rows, err := conn.QueryContext(ctx, queries.Get("ingest.batch_events"), base, last)
	if err != nil {
		return err
	}
	defer closeQuietly(rows)
	got := map[int64]int64{}
	for rows.Next() {
		var id, n int64
		if err := rows.Scan(&id, &n); err != nil {
			return err
		}
		got[id] = n
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for i, p := range todo {
		n := got[base+int64(i)]
		if n != p.res.Lines-p.res.Blank {
			return errNotClean
		}
		p.res.Accepted, p.res.Events, p.res.FastPath = n, n, true
	}
	return nil
}

// recordFiles adds the files rows of a batch in one statement (one INSERT
// per file cost ~0.4 ms each, a tenth of a small file's whole ingest).
func recordFiles(ctx context.Context, conn *sql.Conn, base int64, todo []*pending) error {
	rowSQL := make([]string, len(todo))
	args := make([]any, 0, 10*len(todo))
	for i, p := range todo {
		p.res.FileID = base + int64(i)
		if !p.res.Balanced() {
			return fmt.Errorf("internal accounting error: %s: %d lines != %d accepted + %d rejected + %d blank",
				p.res.Path, p.res.Lines, p.res.Accepted, p.res.Rejected, p.res.Blank)
		}
		rowSQL[i] = queries.Get("ingest.file_row")
		r := p.res
		args = append(args, r.FileID, r.Path, r.SHA256, r.Format, r.Bytes, r.Lines, r.Accepted, r.Rejected, r.Blank, r.Skipped)
	}
	q := queries.Render("ingest.insert_files", queries.Args{"rows": queries.List(rowSQL)})
	if _, err := conn.ExecContext(ctx, q, args...); err != nil {
		return fmt.Errorf("record files: %w", err)
	}
	return nil
}
