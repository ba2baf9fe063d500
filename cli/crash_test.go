package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/faultlens/faultlens/store"
)

// child starts the faultlens command as a separate process.
func child(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "FAULTLENS_CHILD=1")
	return cmd
}

// run runs the command in-process and returns stdout, failing on a non-zero
// exit.
func run(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := Run(context.Background(), args, Streams{Out: &out, Err: &errb}); code != 0 {
		t.Fatalf("faultlens %v: exit %d: %s", args, code, errb.String())
	}
	return out.String()
}

// bigNight writes a suite large enough that its ingest takes a while.
func bigNight(t *testing.T, dir string) string {
	t.Helper()
	run(t, "simulate", "--out", filepath.Join(dir, "big"), "--suite", "big", "--runs", "8000")
	return filepath.Join(dir, "big", "big.jsonl")
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestKillDuringIngest kills an ingest into a database file at several
// moments. Each time the database must open and report exactly the state
// before that ingest (or, if the ingest had finished, after it); re-running
// the ingest then completes.
func TestKillDuringIngest(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	run(t, "simulate", "--out", filepath.Join(dir, "small"), "--runs", "50")
	big := bigNight(t, dir)
	base := filepath.Join(dir, "base.duckdb")
	run(t, "ingest", "--db", base, filepath.Join(dir, "small"))
	before := run(t, "report", "--db", base, "--format", "json")
	full := filepath.Join(dir, "full.duckdb")
	copyFile(t, base, full)
	run(t, "ingest", "--db", full, big)
	after := run(t, "report", "--db", full, "--format", "json")
	if before == after {
		t.Fatal("fixture: the big ingest changed nothing")
	}
	for _, delay := range []time.Duration{0, 150 * time.Millisecond, 400 * time.Millisecond, 900 * time.Millisecond} {
		db := filepath.Join(dir, "kill-"+delay.String()+".duckdb")
		copyFile(t, base, db)
		cmd := child("ingest", "--db", db, big)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(delay)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait() // killed: the error says so, which is the point
		got := run(t, "report", "--db", db, "--format", "json")
		if got != before && got != after {
			t.Fatalf("killed after %v: the database reports neither the state before nor after the ingest", delay)
		}
		run(t, "ingest", "--db", db, big)
		if got := run(t, "report", "--db", db, "--format", "json"); got != after {
			t.Fatalf("killed after %v: re-running the ingest did not complete it", delay)
		}
	}
}

// TestReaderWhileWriting runs a nightly ingest in another process while
// this one reads the same database: a dashboard snapshot taken before is
// (the dashboard's in-memory copy) is unaffected and does not block the
// writer; a report started during the
// ingest waits for it and never sees a half-written suite.
func TestReaderWhileWriting(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	run(t, "simulate", "--out", filepath.Join(dir, "small"), "--runs", "50")
	big := bigNight(t, dir)
	db := filepath.Join(dir, "night.duckdb")
	run(t, "ingest", "--db", db, filepath.Join(dir, "small"))
	before := run(t, "report", "--db", db, "--format", "json")

	ctx := context.Background()
	snap, _, err := store.OpenScoped(ctx, db, store.Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = snap.Close() }() // in memory

	writer := child("ingest", "--db", db, big)
	var werr bytes.Buffer
	writer.Stderr = &werr
	if err := writer.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
	// The dashboard, opened now, says whom it waits for before it takes
	// the screen (issue 15.6), then opens on the state after the ingest.
	var uiErr bytes.Buffer
	uiDone := make(chan error, 1)
	go func() {
		g := &global{limits: store.Limits{LockWait: 5 * time.Minute}}
		mem, done, err := openForUI(ctx, Streams{Err: &uiErr}, g, &uiOptions{src: source{db: db}})
		if err == nil {
			var n int
			err = mem.QueryRow("SELECT count(*) FROM events WHERE run_id LIKE 'big-%'").Scan(&n)
			if err == nil && n == 0 {
				err = fmt.Errorf("the dashboard opened without the ingested suite")
			}
			done()
		}
		uiDone <- err
	}()
	during := run(t, "report", "--db", db, "--format", "json", "--lock-wait", "5m")
	if err := writer.Wait(); err != nil {
		t.Fatalf("the writer failed while a snapshot was open: %v: %s", err, werr.String())
	}
	after := run(t, "report", "--db", db, "--format", "json")
	if err := <-uiDone; err != nil {
		t.Fatal(err)
	}
	wantMsg := fmt.Sprintf("faultlens: database %s is in use by another process (held by PID %d); waiting up to 5m0s\n", db, writer.Process.Pid)
	if uiErr.String() != wantMsg {
		t.Fatalf("the dashboard said %q while waiting, want %q", uiErr.String(), wantMsg)
	}
	if during != before && during != after {
		t.Fatal("a report during the ingest saw a half-written state")
	}
	var n int
	if err := snap.QueryRow("SELECT count(*) FROM events WHERE run_id LIKE 'big-%'").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("the snapshot sees %d events written after it was taken", n)
	}
}
