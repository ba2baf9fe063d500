package serve

import (
	"time"

	"github.com/faultlens/faultlens/store"
)

// The reader window. DuckDB lets one process write a file or many read it,
// and under continuous traffic the receiver would hold the file for good:
// a report or a dashboard would wait until its --lock-wait ran out. A
// process that finds the file locked queues for it with a marker beside it
// (store/queue.go). The committer looks for markers between commits, and
// at least every readerPoll while it has nothing to commit, and closes the
// database when one is there, without recomputing the cache first (the
// reader computes what the cache lacks from the events). Its next commit
// opens the file again, queued behind the readers that came first; the
// requests that arrive meanwhile wait in the queue, and those that do not
// fit are answered 429 and sent again.
//
// So a reader waits at most one commit (under a second at the bounds of a
// group), a poll of its own (100 ms) and the closing of the file.

// readerPoll is how often an idle committer looks for waiting readers.
const readerPoll = 100 * time.Millisecond

// yieldToReaders closes the database if a reader waits for it.
func (rc *Receiver) yieldToReaders() {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.yieldIfWaiting()
}

// yieldIfWaiting closes the database, if it is open and another process
// waits for it. The caller holds rc.mu.
func (rc *Receiver) yieldIfWaiting() {
	if rc.db == nil || !store.Waiting(rc.cfg.DB) {
		return
	}
	err := rc.db.Close()
	rc.db = nil
	rc.yields++
	if err != nil {
		rc.logf("close %s for a waiting reader: %v", rc.cfg.DB, err)
	}
	rc.armRefresh(time.Until(rc.cache.last.Add(rc.cfg.RefreshEvery)))
}
