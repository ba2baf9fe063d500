// Package ingest loads trace files into the DuckDB tables of package store.
//
// A clean JSON Lines file takes the fast path: DuckDB's typed NDJSON reader
// (fast_typed.go) when it can judge the file exactly, else DuckDB's NDJSON
// object reader feeding the validation SQL in queries/ingest.sql. If that
// path meets anything
// it cannot account for line by line (a malformed line, a row that breaks a
// rule, a BOM, NUL bytes, invalid UTF-8, an over-long line), the file is read
// again line by line so that every good line is kept and every bad one is
// rejected with its exact line number and reason. Each file is one
// transaction, but for small clean JSON Lines files, which are read,
// validated and committed in batches (batch.go) that are all or nothing;
// a file whose content was ingested before is skipped.
package ingest

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/faultlens/faultlens/store"
)

// FileResult is the accounting of one input file.
// Lines = Accepted + Rejected + Blank always holds for a file that was read.
type FileResult struct {
	Path      string        // the file as named on the command line
	Format    string        // "jsonl", later "arrow", "otlp"
	SHA256    string        // content hash (of the decompressed content)
	FileID    int64         // the file's id in the files table (0 when skipped)
	Lines     int64         // lines read (rows for Arrow, span lines for OTLP)
	Accepted  int64         // events stored
	Rejected  int64         // lines kept in rejected_lines (for OTLP, net of the rejected events of earlier files whose traces it re-assembled)
	Events    int64         // events stored (equal to Accepted but for OTLP, where spans become events, net of the events of earlier files whose traces it re-assembled)
	Blank     int64         // blank lines, ignored
	Bytes     int64         // size of the content read
	Skipped   int64         // lines of other signals (OTLP metrics and logs), counted and left out
	spanLines int64         // OTLP: lines whose spans were read
	Duplicate string        // when non-empty: already ingested from this path; nothing read
	FastPath  bool          // whether DuckDB's reader took the file whole
	typedRead bool          // JSON Lines: whether the typed read (fast_typed.go) took it
	routes    int           // JSON Lines: how many routes (route.go) it was tried on
	Elapsed   time.Duration // wall time spent on this file

	// RejectedEvents is, for OTLP, how many of Rejected are contract events
	// converted from accepted span lines (refused by validation, or
	// duplicates of stored events) rather than input lines.
	RejectedEvents int64
}

// Balanced reports whether the line accounting holds. For OTLP the events
// rejected out of an accepted span line do not count against the lines:
// that line was read and is counted as accepted.
func (r FileResult) Balanced() bool {
	return r.Duplicate != "" || r.Lines == r.Accepted+(r.Rejected-r.RejectedEvents)+r.Blank+r.Skipped
}

// Options tune an ingest.
type Options struct {
	// Suite overrides the suite of runs read from formats that do not carry
	// one (OTLP); JSON Lines runs always keep their own.
	Suite string
	// Names maps a file path to the name recorded and shown for it (the
	// embedded samples are extracted to a temporary directory but are shown
	// as sample-traces/NAME). Paths not in the map are shown as given.
	Names map[string]string
	// Progress, when not nil, is told after each file.
	Progress func(FileResult)
	// Notify, when not nil, is told what ingest waits for (a FIFO without
	// a writer, a silent pipe).
	Notify func(msg string)
	// Wait bounds the wait for a FIFO's writer (default 60s).
	Wait time.Duration
	// TempDir is where ingest writes its temporary files (default: the
	// system temp dir): streams copied before they are read, gzip content
	// decompressed, Arrow and Parquet rows converted for DuckDB. The CLI sets
	// it from --temp-dir, the directory DuckDB spills to.
	TempDir string
	// Routes switch JSON Lines routes off (tests and benchmarks); the zero
	// value is every route on.
	Routes Routes
}

func (o Options) notify(msg string) {
	if o.Notify != nil {
		o.Notify(msg)
	}
}

// Files ingests each file in order, one transaction per file or per batch
// of small JSON Lines files (see batch.go; a batch is all or nothing, so the
// database always holds a prefix of whole files). It stops at the first
// file that cannot be read at all (missing, unreadable, corrupt
// compression), returning the results so far and an *InputError; files
// already committed stay committed.
//
// An error whose cause is the machine (a full disk, memory, a read-only
// database) is not an *InputError but a *store.CauseError (store.Typed).
func Files(ctx context.Context, db *sql.DB, paths []string, opts Options) ([]FileResult, error) {
	rs, err := files(ctx, db, paths, opts)
	return rs, environment(err)
}

func files(ctx context.Context, db *sql.DB, paths []string, opts Options) ([]FileResult, error) {
	var results []FileResult
	add := func(rs []FileResult, err error) error {
		for _, r := range rs {
			results = append(results, r)
			if opts.Progress != nil {
				opts.Progress(r)
			}
		}
		return err
	}
	b := newBatch(ctx, db)
	for _, p := range paths {
		if f, ok := small(p, opts); ok {
			if !b.fits(f) {
				if err := add(b.commit(ctx, db, opts)); err != nil {
					f.cleanup()
					return results, err
				}
			}
			b.add(f)
			continue
		}
		if err := add(b.commit(ctx, db, opts)); err != nil {
			return results, err
		}
		r, err := File(ctx, db, p, opts)
		if err != nil {
			return results, err
		}
		_ = add([]FileResult{r}, nil) // add returns the error it is given: nil
	}
	return results, add(b.commit(ctx, db, opts))
}

// File ingests one file.
func File(ctx context.Context, db *sql.DB, path string, opts Options) (FileResult, error) {
	start := time.Now()
	name := path
	if n, ok := opts.Names[path]; ok {
		name = n
	} else if path == "-" {
		name = StdinName
	}
	stream, err := inputKind(path)
	if err != nil {
		return FileResult{Path: name}, &InputError{Path: name, Err: err}
	}
	if stream {
		copied, cleanup, err := spool(ctx, path, name, opts)
		if err != nil {
			return FileResult{Path: name}, &InputError{Path: name, Err: err}
		}
		defer cleanup()
		path = copied
	}
	var res FileResult
	switch formatOf(path) {
	case "arrow":
		res, err = ingestArrow(ctx, db, path, name, opts.TempDir)
	case "parquet":
		res, err = ingestParquet(ctx, db, path, name, opts.TempDir)
	case "otlp":
		res, err = ingestOTLP(ctx, db, path, name, opts.Suite)
	default:
		res, err = ingestJSONL(ctx, db, path, name, opts.TempDir, opts.Routes)
	}
	return finish(res, err, name, start)
}

// finish names and times the result of one input and makes every error an
// *InputError naming it.
func finish(res FileResult, err error, name string, start time.Time) (FileResult, error) {
	res.Path = name
	res.Elapsed = time.Since(start)
	if err != nil {
		if env := environment(err); store.IsEnvironment(env) {
			return res, fmt.Errorf("%s: %w", name, env)
		}
		if _, ok := err.(*InputError); ok {
			return res, err
		}
		return res, &InputError{Path: name, Err: err}
	}
	if !res.Balanced() {
		return res, &InputError{Path: name, Err: fmt.Errorf("internal accounting error: %d lines != %d accepted + %d rejected + %d blank",
			res.Lines, res.Accepted, res.Rejected-res.RejectedEvents, res.Blank)}
	}
	return res, nil
}

// Totals sums results; duplicates count only as skipped files. The total's
// Format is the files' format when they share one, else "mixed": for OTLP
// the lines accepted are span lines and Events counts the events they gave,
// so a total over OTLP files must be read like an OTLP file's line.
func Totals(rs []FileResult) (t FileResult, files, duplicates int) {
	for _, r := range rs {
		if r.Duplicate != "" {
			duplicates++
			continue
		}
		files++
		switch t.Format {
		case "":
			t.Format = r.Format
		case r.Format:
		default:
			t.Format = "mixed"
		}
		t.Lines += r.Lines
		t.Accepted += r.Accepted
		t.Events += r.Events
		t.Rejected += r.Rejected
		t.RejectedEvents += r.RejectedEvents
		t.Blank += r.Blank
		t.Skipped += r.Skipped
		t.Elapsed += r.Elapsed
	}
	return t, files, duplicates
}
