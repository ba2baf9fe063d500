package cli

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/faultlens/faultlens/serve/servetest"
)

// TestServeReadersGetIn: under continuous traffic (10 requests a second,
// each committed on its own, the database never idle) and with
// --idle-close 0 (serve would otherwise keep the file for good), report,
// compare, history and export on the served database each get the file
// within their --lock-wait of 2 s: the receiver closes the database for a
// reader that queues for it, between two commits.
func TestServeReadersGetIn(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dbPath := filepath.Join(t.TempDir(), "served.duckdb")
	cmd := child("serve", "--db", dbPath, "--listen", "127.0.0.1:0", "--idle-close", "0", "--threads", "2")
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

	// Two suites, so that compare has a baseline and a candidate.
	post := func(n int) (int, error) {
		td := servetest.Runs(n, 1)
		td.ResourceSpans().At(0).Resource().Attributes().PutStr("service.name", []string{"night1", "night2"}[n%2])
		resp, err := servetest.Post(&http.Client{Timeout: 30 * time.Second}, url, servetest.Proto(td))
		return resp.Status, err
	}
	for n := range 4 {
		if status, err := post(n); err != nil || status != http.StatusOK {
			t.Fatalf("post %d: %v %d", n, err, status)
		}
	}
	stop := make(chan struct{})
	var sent, acked atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for n := 4; ; n++ {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			sent.Add(1)
			go func() {
				if status, err := post(n); err == nil && status == http.StatusOK {
					acked.Add(1)
				}
			}()
		}
	}()
	readers := [][]string{
		{"report", "--db", dbPath, "--format", "json"},
		{"compare", "--db", dbPath, "--baseline", "night1", "--candidate", "night2", "--format", "json"},
		{"history", "--db", dbPath},
		{"export", "--db", dbPath, "--format", "jsonl", "--out", filepath.Join(t.TempDir(), "e.jsonl")},
	}
	for round := range 2 {
		for _, args := range readers {
			args = append(args, "--lock-wait", "2s", "--threads", "2")
			var o, e bytes.Buffer
			start := time.Now()
			code := Run(context.Background(), args, Streams{Out: &o, Err: &e})
			// compare exits 1 when a gate fails; 2 would be the lock wait.
			if code != 0 && (args[0] != "compare" || code != 1) {
				t.Errorf("round %d: %s: exit %d: %s", round, args[0], code, e.String())
			}
			t.Logf("round %d: %s answered in %s", round, args[0], time.Since(start).Round(time.Millisecond))
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
	if acked.Load() == 0 {
		t.Fatalf("no request of the continuous traffic was acknowledged (%d sent): the test proves nothing", sent.Load())
	}
	t.Logf("traffic meanwhile: %d requests sent, %d acknowledged", sent.Load(), acked.Load())
}
