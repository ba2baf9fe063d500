package store

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// TestRemoveDeadSpills: the spill directory of a process that has exited
// is removed; this process's own, a live process's and names that are not
// process ids are kept.
func TestRemoveDeadSpills(t *testing.T) {
	parent := t.TempDir()
	child := exec.Command("true")
	if err := child.Run(); err != nil {
		t.Skip("no true(1) to get the pid of an exited process:", err)
	}
	dead := strconv.Itoa(child.Process.Pid)
	live := exec.Command("sleep", "30")
	if err := live.Start(); err != nil {
		t.Skip("no sleep(1):", err)
	}
	defer func() { _ = live.Process.Kill() }() // a sleep(1) that must not outlive the test
	keep := []string{strconv.Itoa(os.Getpid()), strconv.Itoa(live.Process.Pid), "not-a-pid"}
	for _, d := range append([]string{dead}, keep...) {
		if err := os.MkdirAll(filepath.Join(parent, d), 0o755); err != nil {
			t.Fatal(err)
		}
		mustWrite(t, filepath.Join(parent, d, "duckdb_temp_storage-0.tmp"), []byte("x"))
	}
	removeDeadSpills(parent)
	if _, err := os.Stat(filepath.Join(parent, dead)); !os.IsNotExist(err) {
		t.Errorf("spill of exited process %s kept: %v", dead, err)
	}
	for _, d := range keep {
		if _, err := os.Stat(filepath.Join(parent, d)); err != nil {
			t.Errorf("%s removed: %v", d, err)
		}
	}
	if got, want := filepath.Base(defaultSpillDir()), strconv.Itoa(os.Getpid()); got != want {
		t.Errorf("default spill dir %s, want one named after this process %s", got, want)
	}
}

// TestDefaultSpillDirCreated: with no --temp-dir and a system temp dir that
// has no faultlens-spill yet, a query larger than the memory limit spills
// into this process's directory instead of failing ("cannot use the temp
// directory").
func TestDefaultSpillDirCreated(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	db, err := Open(t.Context(), "", Limits{MemoryLimit: "64MB", Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer mustClose(t, db)
	var last string
	q := `SELECT s FROM (SELECT md5(i::VARCHAR) || md5((i + 1)::VARCHAR) AS s FROM range(3000000) t(i)) ORDER BY s OFFSET 2999999`
	if err := db.QueryRow(q).Scan(&last); err != nil {
		t.Fatalf("a query that spills: %v", err)
	}
	if len(last) != 64 {
		t.Errorf("got %q, want the largest of the 64-character texts", last)
	}
	if _, err := os.Stat(filepath.Join(os.TempDir(), "faultlens-spill")); err != nil {
		t.Errorf("no spill directory: %v", err)
	}
}
