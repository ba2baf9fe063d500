package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"
)

// Streams (standard input as "-" or /dev/stdin, process substitution
// /dev/fd/N, FIFOs) can be read only once, but every format reader reads a
// file twice or more (hash, then load). So a stream is copied once into a
// private temporary file, and that file is ingested under the stream's name:
// the accounting is the same as for a file, and the content hash (taken
// from the copy, which is the stream's bytes) keeps ingest at most once per
// content. Character devices, sockets and block devices are refused.

// streamIdle is how long a stream may stay silent before the user is told
// what ingest waits for (a variable so that tests need not wait).
var streamIdle = 5 * time.Second

// defaultStreamWait bounds the wait for a FIFO's writer when Options.Wait
// is zero.
const defaultStreamWait = 60 * time.Second

// StdinName is how standard input ("-") is recorded and shown.
const StdinName = "(stdin)"

// inputKind sorts a named input: a file read as it is, a stream to copy,
// or something refused (err names why).
func inputKind(path string) (stream bool, err error) {
	if path == "-" {
		if st, err := os.Stdin.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			return false, errors.New("standard input is a terminal, not a trace (pipe one in: faultlens ingest --db FILE - < trace.jsonl)")
		}
		return true, nil
	}
	st, err := os.Stat(path)
	if err != nil {
		return false, statError(err)
	}
	m := st.Mode()
	switch {
	case m.IsRegular():
		return false, nil
	case m&os.ModeNamedPipe != 0:
		return true, nil
	case m&os.ModeCharDevice != 0:
		return false, errors.New("is a character device, not a trace file (faultlens reads files, pipes and FIFOs)")
	case m&os.ModeDevice != 0:
		return false, errors.New("is a block device, not a trace file")
	case m&os.ModeSocket != 0:
		return false, errors.New("is a socket, not a trace file (pipe it in: faultlens ingest -)")
	case m.IsDir():
		return false, nil // Expand walks it
	}
	return false, fmt.Errorf("is a special file (%s), not a trace file", m.Type())
}

// spool copies the stream at path into a temporary file whose name ends
// like the format its first bytes show, and returns that file's path.
func spool(ctx context.Context, path, name string, opts Options) (string, func(), error) {
	noop := func() {}
	if path == "-" {
		path = "/dev/stdin" // reopened, so that reads can time out
	}
	f, err := openStream(ctx, path, name, opts)
	if err != nil {
		return "", noop, err
	}
	defer closeQuietly(f)
	// The first bytes tell the format (gzip, Arrow, Parquet); a pipe may
	// hand them over in several reads.
	var head [8]byte
	n := 0
	for n < len(head) && err == nil {
		var k int
		k, err = readWatched(ctx, f, head[n:], name, int64(n), opts)
		n += k
	}
	if err != nil && err != io.EOF {
		return "", noop, fmt.Errorf("read: %w", err)
	}
	tmp, err := os.CreateTemp(opts.TempDir, "faultlens-stream-*"+suffixFor(head[:n]))
	if err != nil {
		return "", noop, fmt.Errorf("copy the stream to a temporary file: %w", err)
	}
	cleanup := func() { removeTemp(tmp.Name()) }
	_, err = tmp.Write(head[:n])
	total := int64(n)
	buf := make([]byte, 256<<10)
	for err == nil {
		var k int
		k, err = readWatched(ctx, f, buf, name, total, opts)
		total += int64(k)
		if k > 0 {
			if _, werr := tmp.Write(buf[:k]); werr != nil {
				err = fmt.Errorf("copy the stream to %s: %w", tmp.Name(), werr)
			}
		}
	}
	if err == io.EOF {
		err = nil
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		cleanup()
		return "", noop, err
	}
	return tmp.Name(), cleanup, nil
}

// suffixFor names the format by its magic bytes, so that the format
// dispatch (by name for Arrow and Parquet) reads the copy as it would the
// file. JSON Lines and OTLP/JSON are told apart by content later.
func suffixFor(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		return ".jsonl.gz"
	case bytes.HasPrefix(head, []byte("ARROW1")):
		return ".arrow"
	case bytes.HasPrefix(head, []byte{0xff, 0xff, 0xff, 0xff}):
		return ".arrows"
	case bytes.HasPrefix(head, []byte("PAR1")):
		return ".parquet"
	}
	return ".jsonl"
}

// opened is the outcome of an open that may block.
type opened struct {
	f   *os.File
	err error
}

// openStream opens a stream for reading. Opening a FIFO blocks until a
// writer opens it, so the open runs aside: after a second the user is told
// what ingest waits for, and after the wait it gives up (waking the open by
// briefly opening the FIFO for writing itself).
func openStream(ctx context.Context, path, name string, opts Options) (*os.File, error) {
	ch := make(chan opened, 1)
	go func() {
		f, err := os.Open(path)
		ch <- opened{f, err}
	}()
	wait := opts.Wait
	if wait <= 0 {
		wait = defaultStreamWait
	}
	tell := time.NewTimer(time.Second)
	defer tell.Stop()
	give := time.NewTimer(wait)
	defer give.Stop()
	for {
		select {
		case r := <-ch:
			if r.err != nil {
				return nil, fmt.Errorf("open: %w", r.err)
			}
			return r.f, nil
		case <-tell.C:
			opts.notify(fmt.Sprintf("waiting for a writer to open %s (up to %s)", name, wait))
		case <-give.C:
			return nil, unblock(path, ch, fmt.Errorf("no writer opened it within %s", wait))
		case <-ctx.Done():
			return nil, unblock(path, ch, ctx.Err())
		}
	}
}

// unblock wakes an open of a FIFO that waits for a writer and discards it.
func unblock(path string, ch <-chan opened, err error) error {
	if w, werr := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); werr == nil {
		closeQuietly(w)
	}
	go func() {
		if r := <-ch; r.f != nil {
			closeQuietly(r.f)
		}
	}()
	return err
}

// readWatched reads from a stream, telling the user once when it has been
// silent for streamIdle (a writer that keeps the pipe open without writing
// would otherwise look like a hang), and giving up when ctx is done.
func readWatched(ctx context.Context, f *os.File, p []byte, name string, sofar int64, opts Options) (int, error) {
	silent := time.Duration(0)
	for {
		if err := f.SetReadDeadline(time.Now().Add(200 * time.Millisecond)); err != nil {
			return f.Read(p) // not pollable: an ordinary blocking read
		}
		n, err := f.Read(p)
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			return n, err
		}
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		silent += 200 * time.Millisecond
		if silent >= streamIdle && silent < streamIdle+200*time.Millisecond {
			opts.notify(fmt.Sprintf("no data from %s for %s (%d bytes so far); waiting until its writer closes it", name, streamIdle, sofar))
		}
	}
}
