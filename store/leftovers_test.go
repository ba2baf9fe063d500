package store

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestHelperHoldLock is not a test: run as a child process, it holds a
// POSIX lock on $FAULTLENS_LOCK_FILE as a running DuckDB would.
func TestHelperHoldLock(t *testing.T) {
	path := os.Getenv("FAULTLENS_LOCK_FILE")
	if path == "" {
		t.Skip("helper process only")
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	lk := syscall.Flock_t{Type: syscall.F_WRLCK}
	if err := syscall.FcntlFlock(f.Fd(), syscall.F_SETLKW, &lk); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stdout.WriteString("locked\n"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Minute)
}

// Left-over snapshots of dead dashboards are removed; one still open by a
// live process, and anything not named like a snapshot, is kept.
func TestRemoveStaleSnapshots(t *testing.T) {
	dir := t.TempDir()
	mk := func(name string) string {
		d := filepath.Join(dir, name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		mustWrite(t, filepath.Join(d, "snapshot.duckdb"), []byte("x"))
		return d
	}
	dead, live, other := mk("faultlens-snapshot-111"), mk("faultlens-snapshot-222"), mk("something-else")
	empty := filepath.Join(dir, "faultlens-snapshot-333")
	if err := os.MkdirAll(empty, 0o755); err != nil {
		t.Fatal(err)
	}

	child := exec.Command(os.Args[0], "-test.run=^TestHelperHoldLock$")
	child.Env = append(os.Environ(), "FAULTLENS_LOCK_FILE="+filepath.Join(live, "snapshot.duckdb"))
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	// The helper sleeps a minute holding the lock: killed is how it ends,
	// so neither the kill nor the wait (killed: an error) has news.
	defer func() { _ = child.Process.Kill(); _ = child.Wait() }()
	if line, _ := bufio.NewReader(out).ReadString('\n'); line != "locked\n" {
		t.Fatalf("helper said %q", line)
	}

	if n := RemoveStaleSnapshots(dir); n != 2 {
		t.Errorf("removed %d, want 2 (the dead one and the empty one)", n)
	}
	for d, want := range map[string]bool{dead: false, empty: false, live: true, other: true} {
		if _, err := os.Stat(d); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", filepath.Base(d), err == nil, want)
		}
	}
}
