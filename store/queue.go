package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// A process that waits for a database file queues for it: it writes a
// marker beside the file (.<name>.waiting-<pid>, holding the time it began
// to wait) and refreshes it while it waits. A process about to open the
// file first looks at the markers, and lets every live waiter that began
// before it go first. DuckDB's file lock has no queue of its own, and
// waitForLock polls it: without the markers, a command could wait in vain
// behind a process that lets go of the file and takes it again between
// two polls (serve with --idle-close under steady traffic gives the
// command windows of a few milliseconds).
//
// The markers are advisory and best effort. A directory where the marker
// cannot be written leaves that process unqueued, as before; a marker not
// refreshed for staleAfter (its process killed, or its pid reused) is
// ignored and removed.

// staleAfter is how long a waiter's marker counts without a refresh; the
// waiter refreshes it every poll (pollEvery).
const (
	staleAfter = 3 * time.Second
	pollEvery  = 100 * time.Millisecond
)

// errQueued stands in for the lock error while another waiter goes first.
var errQueued = errors.New("queued behind another waiting process")

// waiter is this process's marker for one database file.
type waiter struct {
	marker string
	since  int64 // UnixNano when it began to wait
}

// markerPrefix is the start of every waiter's marker name for the file.
func markerPrefix(db string) string {
	return filepath.Join(filepath.Dir(db), "."+filepath.Base(db)+".waiting-")
}

// queue writes this process's marker for db; nil when it cannot (then
// this process waits unqueued).
func queue(db string) *waiter {
	w := &waiter{marker: markerPrefix(db) + strconv.Itoa(os.Getpid()), since: time.Now().UnixNano()}
	if err := os.WriteFile(w.marker, []byte(strconv.FormatInt(w.since, 10)), 0o600); err != nil {
		return nil
	}
	return w
}

// refresh marks the waiter as still waiting.
func (w *waiter) refresh() {
	if w != nil {
		now := time.Now()
		_ = os.Chtimes(w.marker, now, now) // best effort: a stale marker only loses its place
	}
}

// leave removes the marker; a nil waiter has none.
func (w *waiter) leave() {
	if w != nil {
		_ = os.Remove(w.marker) // best effort: others ignore it once stale
	}
}

// ahead returns the pid of a live waiter for db that began to wait before
// w (before now, when w is nil), or 0 when this process may try the lock.
func ahead(db string, w *waiter) int {
	prefix := markerPrefix(db)
	matches, err := filepath.Glob(globEscape(prefix) + "*")
	if err != nil {
		return 0
	}
	me := int64(1<<63 - 1)
	if w != nil {
		me = w.since
	}
	first := 0
	for _, m := range matches {
		pid, err := strconv.Atoi(strings.TrimPrefix(m, prefix))
		if err != nil || pid <= 0 || pid == os.Getpid() {
			continue
		}
		since, live := readMarker(m, pid)
		if !live {
			_ = os.Remove(m) // best effort, see above
			continue
		}
		if since < me || (since == me && pid < os.Getpid()) {
			me, first = since, pid
		}
	}
	return first
}

// readMarker returns when the marker's process began to wait, and whether
// the marker still counts: its process runs and it was refreshed lately.
func readMarker(path string, pid int) (int64, bool) {
	fi, err := os.Stat(path)
	if err != nil || time.Since(fi.ModTime()) > staleAfter || !alive(pid) {
		return 0, false
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	since, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	return since, err == nil
}

// globEscape quotes the glob metacharacters of a literal path.
func globEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// queuedError is the lock error's stand-in while pid goes first.
func queuedError(pid int) error {
	return fmt.Errorf("%w (PID %d)", errQueued, pid)
}

// Waiting reports whether another live process queues for db (a reader or
// writer that found it locked and waits). A process that holds db for a
// long time (serve) asks between its transactions and lets go of the file
// when one does, so that the waiter gets in within a poll or two.
func Waiting(db string) bool {
	if db == "" {
		return false
	}
	return ahead(db, nil) != 0
}
