package cli

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/faultlens/faultlens/serve"
	"github.com/faultlens/faultlens/serve/servetest"
	"github.com/faultlens/faultlens/store"
)

// serveInProcess runs a receiver on a test server, sends each request and
// closes it, returning the database file.
func serveInProcess(t *testing.T, reqs ...servetest.Request) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "served.duckdb")
	rc := serve.New(serve.Config{DB: path, Limits: store.Limits{Threads: 2, TempDir: t.TempDir()}})
	srv := httptest.NewServer(rc.Handler())
	for i, r := range reqs {
		resp, err := servetest.Post(srv.Client(), srv.URL+serve.TracesPath, r)
		if err != nil || resp.Status != http.StatusOK {
			t.Fatalf("request %d: %v %d %s", i, err, resp.Status, resp.Body)
		}
	}
	srv.Close()
	if err := rc.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	return path
}

// writeLines writes the requests' spans as collector file-exporter lines.
func writeLines(t *testing.T, tds ...ptrace.Traces) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "spans.jsonl")
	var b []byte
	for _, td := range tds {
		b = append(b, servetest.JSONLine(td)...)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestServeReportEqualsFile: the report of a database filled by the
// receiver is byte-identical to the report of the same spans read as a
// file, in every format that does not name its inputs.
func TestServeReportEqualsFile(t *testing.T) {
	tds := []ptrace.Traces{servetest.Runs(0, 3), servetest.Runs(3, 1), servetest.Runs(4, 4)}
	db := serveInProcess(t, servetest.Proto(tds[0]), servetest.JSON(tds[1]), servetest.Proto(tds[2]))
	file := writeLines(t, tds...)
	for _, format := range []string{"json", "text"} {
		served := run(t, "report", "--db", db, "--format", format)
		fromFile := run(t, "report", "--format", format, file)
		if served != fromFile {
			t.Errorf("--format %s: served database and file differ\nserved:\n%s\nfile:\n%s", format, served, fromFile)
		}
	}
	if !strings.Contains(run(t, "report", "--db", db, "--format", "json"), `"runs": 8`) {
		t.Errorf("report does not count the 8 runs sent")
	}
}

// listening reads the receiver's first line and returns its URL.
func listening(t *testing.T, r *bufio.Reader) string {
	t.Helper()
	line, err := r.ReadString('\n')
	if err != nil {
		t.Fatalf("serve printed no address: %v", err)
	}
	m := regexp.MustCompile(`http://\S+/v1/traces`).FindString(line)
	if m == "" {
		t.Fatalf("no URL in %q", line)
	}
	return m
}

// stream runs the command as its own process, sends one run per request
// from 64 clients at once, and sends it sig once 100 requests were
// acknowledged. It returns the database, the runs whose requests were
// acknowledged, how many requests were sent, and what the command printed.
func stream(t *testing.T, sig syscall.Signal) (dbPath string, acked []int, sent int64, log string) {
	t.Helper()
	dbPath = filepath.Join(t.TempDir(), "served.duckdb")
	cmd := child("serve", "--db", dbPath, "--listen", "127.0.0.1:0", "--idle-close", "0", "--threads", "2")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	out := bufio.NewReader(stdout)
	url := listening(t, out)
	var rest strings.Builder
	copied := make(chan struct{})
	go func() { _, _ = io.Copy(&rest, out); close(copied) }() // ends when serve does

	const clients, perClient = 64, 6
	var mu sync.Mutex
	var nSent atomic.Int64
	var wg sync.WaitGroup
	client := &http.Client{Timeout: 30 * time.Second}
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perClient {
				n := c*perClient + i
				nSent.Add(1)
				resp, err := servetest.Post(client, url, servetest.Proto(servetest.Runs(n, 1)))
				if err != nil {
					return // the listener is gone: stop, as an exporter would
				}
				if resp.Status == http.StatusOK {
					mu.Lock()
					acked = append(acked, n)
					mu.Unlock()
				}
			}
		}()
	}
	for {
		mu.Lock()
		n := len(acked)
		mu.Unlock()
		if n >= 100 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	err = cmd.Wait()
	<-copied
	if sig == syscall.SIGTERM && err != nil {
		t.Fatalf("serve exited with %v\n%s", err, rest.String())
	}
	if len(acked) >= clients*perClient {
		t.Fatalf("every request was acknowledged before the signal took effect; the test proves nothing")
	}
	return dbPath, acked, nSent.Load(), rest.String()
}

// storedRuns opens the database the way a reader does after the receiver
// is gone and returns the ids of the runs in it.
func storedRuns(t *testing.T, dbPath string) (files int64, runs map[string]bool) {
	t.Helper()
	db, err := store.OpenReadOnly(context.Background(), dbPath, store.Limits{Threads: 2, TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }() // read-only
	if err := db.QueryRow("SELECT count(*) FROM files").Scan(&files); err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query("SELECT DISTINCT run_id FROM events")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = rows.Close() }() // rows.Err below says whether the read failed
	runs = map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		runs[id] = true
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return files, runs
}

// TestServeSIGTERMLosesNothing: SIGTERM mid-stream lets the requests in
// flight finish. Every acknowledged request is in the database afterwards,
// and nothing that was not acknowledged.
func TestServeSIGTERMLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dbPath, acked, sent, log := stream(t, syscall.SIGTERM)
	files, runs := storedRuns(t, dbPath)
	for _, n := range acked {
		if !runs[servetest.TraceID(n).String()] {
			t.Errorf("run %d was acknowledged but is not stored", n)
		}
	}
	// One run per request; requests are committed several to a files row.
	if len(runs) != len(acked) || files > int64(len(acked)) {
		t.Errorf("acknowledged %d requests (of %d sent); stored %d runs in %d commits\n%s",
			len(acked), sent, len(runs), files, log)
	}
	t.Logf("acknowledged %d of %d sent; stored %d runs in %d commits", len(acked), sent, len(runs), files)
	if !strings.Contains(log, "stopping: finishing requests in flight") {
		t.Errorf("no shutdown message in:\n%s", log)
	}
}

// TestServeSIGKILLLosesNothingAcknowledged: even a SIGKILL mid-stream
// loses no acknowledged request of 64 clients, because a request is
// acknowledged only after the commit that holds it. The requests in flight
// (at most one per client) may or may not have committed; the database
// opens either way.
func TestServeSIGKILLLosesNothingAcknowledged(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dbPath, acked, sent, log := stream(t, syscall.SIGKILL)
	files, runs := storedRuns(t, dbPath)
	for _, n := range acked {
		if !runs[servetest.TraceID(n).String()] {
			t.Errorf("run %d was acknowledged but is not stored", n)
		}
	}
	// The requests in flight (one per client at most) may have committed.
	if len(runs) < len(acked) || len(runs) > len(acked)+64 {
		t.Errorf("acknowledged %d requests (of %d sent); stored %d runs in %d commits\n%s",
			len(acked), sent, len(runs), files, log)
	}
	t.Logf("acknowledged %d of %d sent; stored %d runs in %d commits", len(acked), sent, len(runs), files)
}

// TestServeReadersBetweenBursts: with --idle-close the receiver lets go of
// the database between bursts, so report --db reads it while serve runs,
// and serve takes it back for the next request.
func TestServeReadersBetweenBursts(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dbPath := filepath.Join(t.TempDir(), "served.duckdb")
	cmd := child("serve", "--db", dbPath, "--listen", "127.0.0.1:0", "--idle-close", "100ms", "--threads", "2")
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
	client := &http.Client{Timeout: 30 * time.Second}
	send := func(first, count int) {
		t.Helper()
		resp, err := servetest.Post(client, url, servetest.Proto(servetest.Runs(first, count)))
		if err != nil || resp.Status != http.StatusOK {
			t.Fatalf("post: %v %d %s", err, resp.Status, resp.Body)
		}
	}
	send(0, 2)
	time.Sleep(400 * time.Millisecond) // past --idle-close
	if rep := run(t, "report", "--db", dbPath, "--format", "json", "--lock-wait", "10s"); !strings.Contains(rep, `"runs": 2`) {
		t.Fatalf("report while serving:\n%s", rep)
	}
	send(2, 3)
	time.Sleep(400 * time.Millisecond)
	if rep := run(t, "report", "--db", dbPath, "--format", "json", "--lock-wait", "10s"); !strings.Contains(rep, `"runs": 5`) {
		t.Fatalf("report after the second burst:\n%s", rep)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("serve exited with %v", err)
	}
}
