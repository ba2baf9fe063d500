package store

import (
	"os"
	"path/filepath"
	"syscall"
)

// RemoveStaleSnapshots deletes the snapshot directories that dashboards of
// earlier releases copied the database into (faultlens-snapshot-* under
// dir, default the system temp dir) and left behind when they were killed:
// one per night, each as large as the database. A snapshot still open by a
// running dashboard is kept: DuckDB holds a POSIX record lock on its file,
// so a lock this process can take means no process has it open. It returns
// how many it removed.
func RemoveStaleSnapshots(dir string) int {
	if dir == "" {
		dir = os.TempDir()
	}
	dirs, _ := filepath.Glob(filepath.Join(dir, "faultlens-snapshot-*"))
	removed := 0
	for _, d := range dirs {
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			continue
		}
		if inUse(filepath.Join(d, "snapshot.duckdb")) {
			continue
		}
		if os.RemoveAll(d) == nil {
			removed++
		}
	}
	return removed
}

// inUse reports whether another process holds a lock on path (a missing
// file is not in use).
func inUse(path string) bool {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return false
	}
	defer func() { _ = f.Close() }() // opened only to ask about locks
	lk := syscall.Flock_t{Type: syscall.F_WRLCK, Whence: 0, Start: 0, Len: 0}
	if err := syscall.FcntlFlock(f.Fd(), syscall.F_GETLK, &lk); err != nil {
		return true // cannot tell: keep it
	}
	return lk.Type != syscall.F_UNLCK
}
