package store

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// defaultSpillDir is where DuckDB spills when --temp-dir is not given: a
// directory of this process under faultlens-spill-<uid> in the system temp
// dir. DuckDB names its spill files the same way in every process, so two
// processes spilling into one directory overwrite each other's blocks
// ("Corrupt temporary file", or a crash inside DuckDB); one directory per
// process keeps them apart. Directories of processes that no longer run
// (killed before DuckDB could remove its files) are removed on the way.
// The parent is created here: DuckDB creates only the last directory of
// the path, so without it the first query that spills failed ("Failed to
// create directory"). It is one per user, created 0700: in a shared /tmp
// another user's parent would refuse this user's directories, and a
// parent this user does not own (or a symlink) is not trusted with the
// spilled trace data; then the process's directory goes straight into the
// temp dir (faultlens-spill-<uid>-<pid>), left to DuckDB to create.
func defaultSpillDir() string {
	uid := strconv.Itoa(os.Getuid())
	parent := filepath.Join(os.TempDir(), "faultlens-spill-"+uid)
	// An error shows when DuckDB spills, naming the directory; most
	// queries never spill, so it must not fail the open.
	_ = os.Mkdir(parent, 0o700) // not MkdirAll: a missing temp dir stays missing
	pid := strconv.Itoa(os.Getpid())
	if !ownDir(parent) {
		return parent + "-" + pid
	}
	removeDeadSpills(parent)
	return filepath.Join(parent, pid)
}

// ownDir reports whether path is a real directory (not a symlink) that
// this user owns and nobody else may write to.
func ownDir(path string) bool {
	fi, err := os.Lstat(path)
	if err != nil || !fi.IsDir() || fi.Mode().Perm()&0o022 != 0 {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}

// removeDeadSpills deletes the per-process spill directories under parent
// whose process is gone. Errors are ignored: this is housekeeping, and a
// directory it cannot remove costs only disk.
func removeDeadSpills(parent string) {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid <= 0 || pid == os.Getpid() || alive(pid) {
			continue
		}
		_ = os.RemoveAll(filepath.Join(parent, e.Name())) // best effort, see above
	}
}

// alive reports whether a process with this pid exists (signal 0 checks
// without signalling; EPERM means it exists under another user).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
