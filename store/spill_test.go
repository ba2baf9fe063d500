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
// has no faultlens-spill-<uid> yet, a query larger than the memory limit spills
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
	parent := filepath.Join(os.TempDir(), "faultlens-spill-"+strconv.Itoa(os.Getuid()))
	fi, err := os.Stat(parent)
	if err != nil {
		t.Fatalf("no spill directory: %v", err)
	}
	if perm := fi.Mode().Perm(); perm != 0o700 {
		t.Errorf("spill parent %s has mode %o, want 700 (spilled data is the user's traces)", parent, perm)
	}
}

// TestSpillParentNotTrusted: a faultlens-spill-<uid> that is a symlink, or
// a directory others may write to, is not used (someone else could read or
// swap the spilled blocks); the process's directory then goes straight
// into the temp dir, and a query that spills still works.
func TestSpillParentNotTrusted(t *testing.T) {
	for _, tc := range []struct {
		name  string
		plant func(t *testing.T, parent string)
	}{
		{"symlink", func(t *testing.T, parent string) {
			if err := os.Symlink(t.TempDir(), parent); err != nil {
				t.Fatal(err)
			}
		}},
		{"world-writable", func(t *testing.T, parent string) {
			if err := os.Mkdir(parent, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(parent, 0o777); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			parent := filepath.Join(tmp, "faultlens-spill-"+strconv.Itoa(os.Getuid()))
			tc.plant(t, parent)
			got := defaultSpillDir()
			if want := parent + "-" + strconv.Itoa(os.Getpid()); got != want {
				t.Fatalf("spill dir %s, want %s beside the untrusted parent", got, want)
			}
			db, err := Open(t.Context(), "", Limits{MemoryLimit: "64MB", Threads: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer mustClose(t, db)
			var n int64
			q := `SELECT count(DISTINCT s) FROM (SELECT md5(i::VARCHAR) || md5((i + 1)::VARCHAR) AS s FROM range(3000000) t(i))`
			if err := db.QueryRow(q).Scan(&n); err != nil {
				t.Fatalf("a query that spills: %v", err)
			}
			if n != 3000000 {
				t.Errorf("count %d, want 3000000", n)
			}
		})
	}
}
