package cli

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/faultlens/faultlens/serve/servetest"
)

// TestPruneWhileServing: prune rewrites the database three times while
// serve takes requests and lets go of the file after every quiet 10ms (so
// it reopens it all the time). Every acknowledged request is in the
// database afterwards, and every pruned suite is gone. The old suites start
// in 2000 and the cutoff is 1000 weeks, so the served runs (2026) stay.
// This is the whole flow; the window it guards (the rename) is too short to
// hit by chance, so that the file stays locked through it is checked step
// by step in store's TestCompactKeepsTheLockThroughTheRename.
func TestPruneWhileServing(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "served.duckdb")
	cmd := child("serve", "--db", dbPath, "--listen", "127.0.0.1:0", "--idle-close", "10ms", "--threads", "2")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill() }() // a no-op once it has exited
	out := bufio.NewReader(stdout)
	url := listening(t, out)
	go func() { _, _ = io.Copy(io.Discard, out) }() // serve's log: only drained

	var mu sync.Mutex
	var acked []int
	stop := make(chan struct{})
	var wg sync.WaitGroup
	client := &http.Client{Timeout: 60 * time.Second}
	for c := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := c; ; n += 2 {
				select {
				case <-stop:
					return
				default:
				}
				resp, err := servetest.Post(client, url, servetest.Proto(servetest.Runs(n, 1)))
				if err == nil && resp.Status == http.StatusOK {
					mu.Lock()
					acked = append(acked, n)
					mu.Unlock()
				}
				time.Sleep(time.Duration(100+c*37) * time.Millisecond) // quiet spells, so serve closes the file
			}
		}()
	}
	for i := range 3 {
		suite := fmt.Sprintf("old-%d", i)
		old := filepath.Join(dir, suite)
		run(t, "simulate", "--out", old, "--suite", suite, "--start", fmt.Sprintf("2000-01-0%dT02:00:00Z", i+1), "--runs", "20")
		run(t, "ingest", "--db", dbPath, "--lock-wait", "60s", old)
		got := run(t, "prune", "--db", dbPath, "--older-than", "1000w", "--lock-wait", "60s")
		if !strings.Contains(got, "dropping suite "+suite+": 20 runs") || !strings.Contains(got, "bytes") {
			t.Fatalf("prune %d:\n%s", i, got)
		}
	}
	close(stop)
	wg.Wait()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("serve exited with %v", err)
	}
	files, runs := storedRuns(t, dbPath)
	if len(acked) < 3 {
		t.Fatalf("only %d requests acknowledged while pruning; the test proves nothing", len(acked))
	}
	for _, n := range acked {
		if !runs[servetest.TraceID(n).String()] {
			t.Errorf("run %d was acknowledged but is not stored", n)
		}
	}
	if files < 1 || files > int64(len(acked)) {
		t.Errorf("%d files stored, want 1 to %d (requests are committed several to a files row)", files, len(acked))
	}
	if len(runs) != len(acked) {
		t.Errorf("%d runs stored, want the %d acknowledged (the pruned suites' runs must be gone)", len(runs), len(acked))
	}
	t.Logf("%d requests acknowledged while pruning three times", len(acked))
}
