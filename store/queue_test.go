package store

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// liveChild starts a sleep(1) whose pid stands for another faultlens
// process waiting for the database.
func liveChild(t *testing.T) int {
	t.Helper()
	c := exec.Command("sleep", "30")
	if err := c.Start(); err != nil {
		t.Skip("no sleep(1):", err)
	}
	t.Cleanup(func() { _ = c.Process.Kill(); _ = c.Wait() })
	return c.Process.Pid
}

// plantMarker writes pid's marker for db as having begun to wait at
// since, last refreshed at touched.
func plantMarker(t *testing.T, db string, pid int, since, touched time.Time) string {
	t.Helper()
	m := markerPrefix(db) + strconv.Itoa(pid)
	mustWrite(t, m, []byte(strconv.FormatInt(since.UnixNano(), 10)))
	if err := os.Chtimes(m, touched, touched); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestQueueLetsEarlierWaiterGoFirst: while another live process queues for
// the file, opening it waits (the lock itself is free) and says who goes
// first; once that process has left the queue, the open succeeds, and
// this process's own marker is gone afterwards.
func TestQueueLetsEarlierWaiterGoFirst(t *testing.T) {
	db := filepath.Join(t.TempDir(), "q.duckdb")
	pid := liveChild(t)
	m := plantMarker(t, db, pid, time.Now().Add(-time.Second), time.Now())
	var told []string
	_, err := Open(t.Context(), db, Limits{LockWait: 300 * time.Millisecond, OnWait: func(s string) { told = append(told, s) }})
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("open while another process queued first: %v, want ErrLocked", err)
	}
	want := "PID " + strconv.Itoa(pid) + " waits for it first"
	if !strings.Contains(err.Error(), want) || len(told) != 1 || !strings.Contains(told[0], want) {
		t.Errorf("error %q, told %q: want both to say %q", err, told, want)
	}
	if err := os.Remove(m); err != nil {
		t.Fatal(err)
	}
	d, err := Open(t.Context(), db, Limits{LockWait: 300 * time.Millisecond})
	if err != nil {
		t.Fatalf("open after the other waiter left: %v", err)
	}
	mustClose(t, d)
	left, _ := filepath.Glob(markerPrefix(db) + "*")
	if len(left) != 0 {
		t.Errorf("markers left behind: %v", left)
	}
}

// TestQueueIgnoresDeadAndStaleMarkers: a marker whose process is gone, or
// which was not refreshed for longer than staleAfter, does not hold anyone
// back, and is removed.
func TestQueueIgnoresDeadAndStaleMarkers(t *testing.T) {
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skip("no true(1):", err)
	}
	db := filepath.Join(t.TempDir(), "q.duckdb")
	old := time.Now().Add(-time.Minute)
	markers := []string{
		plantMarker(t, db, dead.Process.Pid, old, time.Now()),
		plantMarker(t, db, liveChild(t), old, time.Now().Add(-2*staleAfter)),
	}
	d, err := Open(t.Context(), db, Limits{LockWait: 300 * time.Millisecond})
	if err != nil {
		t.Fatalf("open with only dead and stale markers: %v", err)
	}
	mustClose(t, d)
	for _, m := range markers {
		if _, err := os.Stat(m); !os.IsNotExist(err) {
			t.Errorf("marker %s kept: %v", m, err)
		}
	}
}

// TestAheadOrder: the waiter that began first goes first; this process
// defers only to those before it, and to every live waiter while it has
// not queued itself.
func TestAheadOrder(t *testing.T) {
	db := filepath.Join(t.TempDir(), "q.duckdb")
	base := time.Now().Add(-time.Second)
	a, b := liveChild(t), liveChild(t)
	plantMarker(t, db, a, base.Add(100*time.Millisecond), time.Now())
	plantMarker(t, db, b, base.Add(200*time.Millisecond), time.Now())
	for _, tc := range []struct {
		name string
		me   *waiter
		want int
	}{
		{"not queued", nil, a},
		{"queued between", &waiter{since: base.Add(150 * time.Millisecond).UnixNano()}, a},
		{"queued last", &waiter{since: base.Add(300 * time.Millisecond).UnixNano()}, a},
		{"queued first", &waiter{since: base.Add(50 * time.Millisecond).UnixNano()}, 0},
	} {
		if got := ahead(db, tc.me); got != tc.want {
			t.Errorf("%s: ahead = %d, want %d", tc.name, got, tc.want)
		}
	}
}
