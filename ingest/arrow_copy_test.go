package ingest

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// TestArrowLateChunkError: a corrupt row in the last chunk, found while
// the first chunks may be stored already, is an input error naming the row,
// and nothing of the file is committed or left behind.
func TestArrowLateChunkError(t *testing.T) {
	defer func(n int64) { chunkRows = n }(chunkRows)
	chunkRows = 3
	rows := []string{runLine, stageLine, toolLine, modelLine, evidenceLine,
		strings.Replace(toolLine, `"c1"`, `"c2"`, 1), strings.Replace(toolLine, `"c1"`, `"c3"`, 1),
		strings.Replace(toolLine, `"c1"`, `"c4"`, 1), strings.Replace(terminalLine, `"r1"`, `"r\u00e9"`, 1)}
	for _, stream := range []bool{false, true} {
		b := encodeArrow(t, CanonicalArrowSchema, rows, stream)
		i := bytes.Index(b, []byte("r\xc3\xa9"))
		if i < 0 {
			t.Fatal("no é in the file")
		}
		b[i+2] = 'x' // "é" cut to an invalid byte
		tmp := t.TempDir()
		path := filepath.Join(t.TempDir(), "late.arrow")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		db := openDB(t)
		_, err := ingestArrow(context.Background(), db, path, "late.arrow", tmp)
		var in *InputError
		if !errors.As(err, &in) || errText(err) != "late.arrow: corrupt Arrow IPC data: column run_id, row 9: invalid UTF-8" {
			t.Errorf("stream %v: err = %v (%T)", stream, err, err)
		}
		for _, table := range []string{"events", "files", "rejected_lines"} {
			if n := countRows(t, db, table); n != 0 {
				t.Errorf("stream %v: %d rows in %s, want none", stream, n, table)
			}
		}
		if left, _ := filepath.Glob(filepath.Join(tmp, "*")); len(left) != 0 {
			t.Errorf("stream %v: left behind %v", stream, left)
		}
	}
}

// TestArrowCopyOverlapAndStop reads a stream from a pipe that holds the
// copy after its first chunk: that chunk is handed out while the copy
// still runs, a cancelled wait for the next one returns the context's
// error, and abandon stops the copy at its next batch and removes its
// files.
func TestArrowCopyOverlapAndStop(t *testing.T) {
	defer func(n int64) { chunkRows = n }(chunkRows)
	chunkRows = 3
	fifo := filepath.Join(t.TempDir(), "p.arrows")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	more := make(chan struct{})
	wrote := make(chan error, 1)
	go func() {
		wrote <- writeStreamInTwo(fifo, []string{runLine, stageLine, toolLine, modelLine}, []string{evidenceLine, terminalLine}, more)
	}()
	tmp := t.TempDir()
	cp := startArrowCopy(fifo, tmp)
	if _, err := cp.schema(); err != nil {
		t.Fatal(err)
	}
	ps, err := cp.next(context.Background(), 0)
	if err != nil || len(ps) != 1 {
		t.Fatalf("next(0) = %v, %v; want chunk 0", ps, err)
	}
	select {
	case <-cp.done:
		t.Fatal("the copy ended before the second batch was written")
	default:
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if ps, err := cp.next(ctx, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("next(1) with a cancelled context = %v, %v; want context.Canceled", ps, err)
	}
	abandoned := make(chan struct{})
	go func() { cp.abandon(); close(abandoned) }()
	for !cp.chunks.stop.Load() {
		runtime.Gosched()
	}
	close(more)
	<-abandoned
	if err := <-wrote; err != nil && !errors.Is(err, syscall.EPIPE) {
		t.Errorf("writer: %v", err)
	}
	if _, rows, err := cp.wait(); !errors.Is(err, errCopyStopped) || rows != 6 {
		t.Errorf("copy ended with %d rows, %v; want 6 rows, %v", rows, err, errCopyStopped)
	}
	if got := cp.chunks.readyFrom(1); len(got) != 0 {
		t.Errorf("chunks written after the stop: %v", got)
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "*")); len(left) != 0 {
		t.Errorf("left behind %v", left)
	}
}

// writeStreamInTwo writes an Arrow IPC stream of the canonical schema to
// the pipe at path: first's rows as one batch, then, once more is closed,
// second's.
func writeStreamInTwo(path string, first, second []string, more <-chan struct{}) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer closeQuietly(f)
	w := ipc.NewWriter(f, ipc.WithSchema(CanonicalArrowSchema))
	for i, rows := range [][]string{first, second} {
		if i == 1 {
			<-more
		}
		rd := array.NewJSONReader(strings.NewReader(strings.Join(rows, "\n")), CanonicalArrowSchema, array.WithChunk(len(rows)))
		for rd.Next() {
			if err := w.Write(rd.RecordBatch()); err != nil {
				rd.Release()
				return err
			}
		}
		rd.Release()
	}
	return w.Close()
}

// TestCopyThreads: one DuckDB thread when set so, the usual count otherwise
// and after restore.
func TestCopyThreads(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer closeQuietly(conn)
	if _, err := conn.ExecContext(ctx, setThreads(3)); err != nil {
		t.Fatal(err)
	}
	threads := func() int64 {
		_, n, err := readLimits(ctx, conn)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	ct, err := newCopyThreads(ctx, conn)
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct {
		one  bool
		want int64
	}{{true, 1}, {true, 1}, {false, 3}, {true, 1}} {
		if err := ct.set(ctx, step.one); err != nil {
			t.Fatal(err)
		}
		if got := threads(); got != step.want {
			t.Errorf("one %v: %d threads, want %d", step.one, got, step.want)
		}
	}
	ct.restore(ctx)
	if got := threads(); got != 3 {
		t.Errorf("after restore: %d threads, want 3", got)
	}
}
