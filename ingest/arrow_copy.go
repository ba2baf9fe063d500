package ingest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
)

// arrowCopy is the Parquet copy of an Arrow file (arrowToParquet) made in
// the background, so that DuckDB stores the first chunk files while the
// reader and the writers make the last ones (storeArrowChunks): in wall
// time the copy no longer comes wholly before DuckDB starts.
type arrowCopy struct {
	opened chan struct{} // closed once sc and chunks are set, or the read ended without them
	done   chan struct{} // closed when the read ended: rows, err and paths are set

	sc     *arrow.Schema
	chunks *parquetChunks // nil when the read ended before the writers started

	rows  int64
	err   error
	paths []string // every chunk file in row order (none after an error)
}

// errCopyStopped ends a copy that its user abandoned.
var errCopyStopped = errors.New("copy stopped")

// copyFailed is an error of the copy (the Arrow file's, or a *sinkError),
// as opposed to one of DuckDB or of the context.
type copyFailed struct{ err error }

func (e *copyFailed) Error() string { return e.err.Error() }
func (e *copyFailed) Unwrap() error { return e.err }

// startArrowCopy starts copying the Arrow file at path into Parquet chunk
// files in tmpDir ("": the system temp dir). abandon must follow.
func startArrowCopy(path, tmpDir string) *arrowCopy {
	c := &arrowCopy{opened: make(chan struct{}), done: make(chan struct{})}
	go func() {
		isOpen := false
		sc, rows, err := readArrow(path, func(sc *arrow.Schema) (arrowSink, error) {
			s, err := newParquetChunks(sc, tmpDir)
			if err != nil {
				return nil, err
			}
			c.sc, c.chunks = sc, s
			isOpen = true
			close(c.opened)
			return s, nil
		})
		if !isOpen {
			c.sc = sc
		}
		c.rows, c.err = rows, err
		if c.chunks != nil {
			c.paths = c.chunks.Paths()
		}
		if err != nil {
			removeTemps(c.paths)
			c.paths = nil
		}
		if !isOpen {
			close(c.opened)
		}
		close(c.done)
	}()
	return c
}

// schema waits until the file's schema is checked and its copy under way,
// and returns the schema, or the copy's error if it ended before.
func (c *arrowCopy) schema() (*arrow.Schema, error) {
	<-c.opened
	if c.chunks == nil {
		<-c.done
		return c.sc, c.err
	}
	return c.sc, nil
}

// next waits until chunk from (0-based) is written and returns its file
// and those of the written chunks right after it; io.EOF after the last
// chunk; a *copyFailed when the copy failed; or the context's error. The
// copy must have started (schema returned no error).
func (c *arrowCopy) next(ctx context.Context, from int) ([]string, error) {
	for {
		if ps := c.chunks.readyFrom(from); len(ps) > 0 {
			return ps, nil
		}
		select {
		case <-c.done:
			if c.err != nil {
				return nil, &copyFailed{c.err}
			}
			if ps := c.chunks.readyFrom(from); len(ps) > 0 {
				return ps, nil
			}
			return nil, io.EOF
		case <-c.chunks.notify:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// wait waits for the end of the copy and returns its chunk files in row
// order, the rows read and the copy's error.
func (c *arrowCopy) wait() ([]string, int64, error) {
	<-c.done
	return c.paths, c.rows, c.err
}

// abandon stops the copy if it still runs, waits for its end and removes
// its files.
func (c *arrowCopy) abandon() {
	<-c.opened
	if c.chunks != nil {
		c.chunks.stop.Store(true)
	}
	<-c.done
	removeTemps(c.paths)
}

// running reports whether the copy is still being made.
func (c *arrowCopy) running() bool {
	select {
	case <-c.done:
		return false
	default:
		return true
	}
}

// copyThreads runs DuckDB on one thread for the INSERTs made while the copy
// runs, and for one over a single chunk file (one row group, so one task),
// on its usual count otherwise. Measured: an INSERT over one chunk file
// costs about twice the CPU on two threads as on one, the thread without a
// task burning a core (the copy's writers want it).
type copyThreads struct {
	conn    *sql.Conn
	threads int64 // the count to restore
	one     bool  // whether DuckDB runs on one thread now
}

// newCopyThreads reads DuckDB's thread count for copyThreads.
func newCopyThreads(ctx context.Context, conn *sql.Conn) (*copyThreads, error) {
	_, threads, err := readLimits(ctx, conn)
	if err != nil {
		return nil, err
	}
	return &copyThreads{conn: conn, threads: threads}, nil
}

// set runs DuckDB on one thread if one, else on its usual count.
func (t *copyThreads) set(ctx context.Context, one bool) error {
	if one == t.one || t.threads <= 1 {
		return nil
	}
	n := t.threads
	if one {
		n = 1
	}
	if _, err := t.conn.ExecContext(ctx, setThreads(n)); err != nil {
		return fmt.Errorf("set threads: %w", err)
	}
	t.one = one
	return nil
}

// restore sets DuckDB's usual thread count back if set changed it.
func (t *copyThreads) restore(ctx context.Context) {
	if t.one {
		// As for boundThreads: a failure leaves fewer threads, slower,
		// never wrong.
		_, _ = t.conn.ExecContext(context.WithoutCancel(ctx), setThreads(t.threads))
		t.one = false
	}
}
