package ingest

import (
	"context"
	"io"
	"os"
	"sync/atomic"
	"time"
)

// Pipelining in Files (issue 12.2): the prescan of a JSON Lines file is
// pure Go and reads nothing DuckDB writes, so while DuckDB stores file N
// the prescan of file N+1 runs on goroutines of its own. Nothing else
// moves: file N+1 is still opened, checked against the stored hashes,
// stored and committed after file N, in its own transaction, and a
// prefetched scan that cannot be used as it is (an error, a file changed
// since, another format) is thrown away and the file scanned again where
// it always was, so every result and error is the one of the serial order.

// prefetchOff turns pipelining off, so that tests and benchmarks can
// compare the two orders on the same files.
var prefetchOff bool

// prefetchMinBytes is the smallest file prefetched: smaller ones are
// candidates for a batch of small files (batch.go), which prescans them
// itself. A variable so that tests can prefetch small files.
var prefetchMinBytes int64 = smallFileBytes

// prefetchesStarted and prefetchesUsed count the prefetches started and
// those whose scan a file's ingest used, for the tests.
var prefetchesStarted, prefetchesUsed atomic.Int64

// prefetch is the prescan of one file running ahead of its ingest.
type prefetch struct {
	path   string
	st     os.FileInfo // the file when its prescan started
	cancel context.CancelFunc
	done   chan struct{}
	owned  bool // handed to the ingest (take) or thrown away (discard)

	// Set by the goroutine before done is closed.
	plain   string
	cleanup func()
	sc      scan
	err     error
	jsonl   bool          // formatOf said JSON Lines
	took    time.Duration // the prescan's wall time
}

// startPrefetch starts the prescan of path when it is a regular file of at
// least prefetchMinBytes; it returns nil for anything else (standard
// input, a FIFO, a missing file), which File then reads as always.
func startPrefetch(ctx context.Context, path, tmpDir string) *prefetch {
	if prefetchOff || path == "-" {
		return nil
	}
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() || st.Size() < prefetchMinBytes {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	p := &prefetch{path: path, st: st, cancel: cancel, done: make(chan struct{}), cleanup: func() {}}
	prefetchesStarted.Add(1)
	go func() {
		defer close(p.done)
		start := time.Now()
		if p.jsonl = formatOf(path) == "jsonl"; !p.jsonl {
			return
		}
		p.plain, p.cleanup, p.sc, p.err = readAndScanCtx(ctx, path, tmpDir)
		p.took = time.Since(start)
	}()
	return p
}

// usable waits for the prescan and reports whether it can stand for a
// prescan of path now: it succeeded on a JSON Lines file that is the same,
// of the same size and modification time, as when it started.
func (p *prefetch) usable(path string) bool {
	if p == nil || p.owned || p.path != path {
		return false
	}
	<-p.done
	if p.err != nil || !p.jsonl {
		return false
	}
	st, err := os.Stat(path)
	return err == nil && os.SameFile(st, p.st) && st.Size() == p.st.Size() && st.ModTime().Equal(p.st.ModTime())
}

// scan is readAndScan of path through the prefetch when it is usable
// (the caller then owns its temporary file, as readAndScan's); else the
// prefetch is thrown away and path scanned now. took is the wall time of
// a prefetched scan (0 otherwise), which the file's Elapsed includes.
func (p *prefetch) scan(path, tmpDir string) (plain string, cleanup func(), sc scan, took time.Duration, err error) {
	if !p.usable(path) {
		p.discard()
		plain, cleanup, sc, err = readAndScan(path, tmpDir)
		return plain, cleanup, sc, 0, err
	}
	p.owned = true
	p.cancel()
	prefetchesUsed.Add(1)
	return p.plain, p.cleanup, p.sc, p.took, nil
}

// discard stops the prescan unless its result was handed over, waits for
// it and removes what it wrote. It may be called more than once, and on
// nil.
func (p *prefetch) discard() {
	if p == nil || p.owned {
		return
	}
	p.owned = true
	p.cancel()
	<-p.done
	p.cleanup()
}

// ctxReader fails the next Read once ctx is done, so that a prefetch
// stops within one read of the prescan when Files returns early.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(b []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(b)
}

// pipeline is what Files hands the ingest of one file: the prefetch of
// that file (or nil), and what to do once the file is scanned (start the
// next file's prefetch, so that it runs while DuckDB stores this one).
type pipeline struct {
	pre     *prefetch
	scanned func()
	took    time.Duration // the prefetched scan's wall time, when used
}

// scan is readAndScan for the file's ingest (ingestJSONL); nil is no
// pipeline.
func (pl *pipeline) scan(path, tmpDir string) (plain string, cleanup func(), sc scan, err error) {
	if pl == nil {
		return readAndScan(path, tmpDir)
	}
	plain, cleanup, sc, pl.took, err = pl.pre.scan(path, tmpDir)
	if err == nil && pl.scanned != nil {
		pl.scanned()
	}
	return plain, cleanup, sc, err
}

// scanTook is the wall time of a prefetched scan the file used.
func (pl *pipeline) scanTook() time.Duration {
	if pl == nil {
		return 0
	}
	return pl.took
}

// discard throws away a prefetch the file's ingest did not use (a file of
// another format).
func (pl *pipeline) discard() {
	if pl != nil {
		pl.pre.discard()
	}
}
