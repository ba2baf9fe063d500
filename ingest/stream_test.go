package ingest

import (
	"bytes"
	"compress/gzip"
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// fifo makes a named pipe in a temporary directory.
func fifo(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "in.fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	return p
}

// feed writes parts to the FIFO at p, pausing between them, then closes it.
func feed(t *testing.T, p string, pause time.Duration, parts ...string) *sync.WaitGroup {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		f, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			t.Error(err)
			return
		}
		defer closeQuietly(f)
		for i, part := range parts {
			if i > 0 {
				time.Sleep(pause)
			}
			if _, err := f.WriteString(part); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	return &wg
}

// notes collects what ingest tells the user.
type notes struct {
	mu  sync.Mutex
	msg []string
}

func (n *notes) add(m string) { n.mu.Lock(); n.msg = append(n.msg, m); n.mu.Unlock() }
func (n *notes) all() string  { n.mu.Lock(); defer n.mu.Unlock(); return strings.Join(n.msg, "\n") }

// A FIFO is read once as a stream with the same accounting and hash as the
// same bytes in a file; the same content again is skipped (at most once),
// and gzip is recognised from the bytes.
func TestStreamFIFO(t *testing.T) {
	ctx := context.Background()
	text := lines(runLine, stageLine, "{bad", "", toolLine, terminalLine)
	file := writeFile(t, t.TempDir(), "same.jsonl", text)

	db := openDB(t)
	want, err := File(ctx, db, file, Options{})
	if err != nil {
		t.Fatal(err)
	}
	db2 := openDB(t)
	p := fifo(t)
	wg := feed(t, p, 0, text[:40], text[40:])
	got, err := File(ctx, db2, p, Options{})
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if got.Lines != 6 || got.Accepted != 4 || got.Rejected != 1 || got.Blank != 1 || got.SHA256 != want.SHA256 || got.Path != p {
		t.Fatalf("FIFO: %+v\nfile: %+v", got, want)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	if _, err := zw.Write([]byte(text)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	wg = feed(t, p, 0, gz.String())
	again, err := File(ctx, db2, p, Options{})
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if again.Duplicate != p {
		t.Fatalf("the same content through a gzip stream was not skipped as a duplicate: %+v", again)
	}
}

// A FIFO that no writer opens is given up after the wait, with a message
// saying what ingest waited for.
func TestStreamNoWriter(t *testing.T) {
	var n notes
	p := fifo(t)
	start := time.Now()
	_, err := File(context.Background(), openDB(t), p, Options{Wait: 1300 * time.Millisecond, Notify: n.add})
	if err == nil || err.Error() != p+": no writer opened it within 1.3s" {
		t.Fatalf("got %v", err)
	}
	if n.all() != "waiting for a writer to open "+p+" (up to 1.3s)" {
		t.Fatalf("notes: %q", n.all())
	}
	if time.Since(start) > 20*time.Second {
		t.Fatal("the wait was not bounded")
	}
}

// A writer that keeps the pipe open without writing is reported once, and
// what it writes later is still read whole.
func TestStreamSilentWriter(t *testing.T) {
	defer func(d time.Duration) { streamIdle = d }(streamIdle)
	streamIdle = 300 * time.Millisecond
	var n notes
	p := fifo(t)
	text := lines(goodLines...)
	wg := feed(t, p, 900*time.Millisecond, text[:50], text[50:])
	got, err := File(context.Background(), openDB(t), p, Options{Notify: n.add})
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if got.Lines != 6 || got.Accepted != 6 {
		t.Fatalf("%+v", got)
	}
	if n.all() != "no data from "+p+" for 300ms (50 bytes so far); waiting until its writer closes it" {
		t.Fatalf("notes: %q", n.all())
	}
}

// Devices and sockets are refused by name, before anything is read.
func TestSpecialFilesRefused(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "s.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer closeQuietly(l)
	for path, want := range map[string]string{
		"/dev/zero": "/dev/zero: is a character device, not a trace file (faultlens reads files, pipes and FIFOs)",
		"/dev/null": "/dev/null: is a character device, not a trace file (faultlens reads files, pipes and FIFOs)",
		sock:        sock + ": is a socket, not a trace file (pipe it in: faultlens ingest -)",
	} {
		if _, err := Expand([]string{path}); err == nil || err.Error() != want {
			t.Errorf("Expand(%s): got %v, want %q", path, err, want)
		}
		if _, err := File(context.Background(), openDB(t), path, Options{}); err == nil || err.Error() != want {
			t.Errorf("File(%s): got %v, want %q", path, err, want)
		}
	}
}

// A directory walk takes only regular files, never a FIFO named like a trace.
func TestExpandSkipsFIFOsInDirectories(t *testing.T) {
	p := fifo(t)
	dir := filepath.Dir(p)
	if err := syscall.Mkfifo(filepath.Join(dir, "x.jsonl"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "y.jsonl"), []byte(lines(runLine)), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Expand([]string{dir})
	if err != nil || len(got) != 1 || filepath.Base(got[0]) != "y.jsonl" {
		t.Fatalf("got %v, %v", got, err)
	}
}

func TestSuffixFor(t *testing.T) {
	for head, want := range map[string]string{
		"\x1f\x8b\x08\x00": ".jsonl.gz", "ARROW1\x00\x00": ".arrow", "\xff\xff\xff\xff\x10": ".arrows",
		"PAR1\x15\x04": ".parquet", `{"type"`: ".jsonl", "": ".jsonl",
	} {
		if got := suffixFor([]byte(head)); got != want {
			t.Errorf("suffixFor(%q) = %s, want %s", head, got, want)
		}
	}
}
