package serve

import (
	"fmt"
	"time"

	"github.com/faultlens/faultlens/textsafe"
)

// Totals is the receiver's accounting since it started.
type Totals struct {
	Requests   int64 // requests that reached the committer (parsed and queued)
	Stored     int64 // requests committed (a group's files row holds several)
	Duplicates int64 // requests whose content was already stored
	Failed     int64 // requests not stored (answered with an error)
	Spans      int64 // spans received in parsed requests
	Events     int64 // contract events stored
	Rejected   int64 // events rejected (kept in rejected_lines)
	Skipped    int64 // metrics and logs requests, read and left out
	Refreshes  int64 // recomputations of the cached suite reports (metrics.Freshen)
}

// Totals returns the accounting so far.
func (rc *Receiver) Totals() Totals {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.totals
}

// skipped counts a request of another signal and prints its line.
func (rc *Receiver) skipped(remote, signal, what string) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.totals.Skipped++
	rc.logf("%s  %s (%s): not traces, skipped", sourceName(remote, 0), signal, what)
}

// account adds one request to the totals and prints its line. The caller
// holds rc.mu.
func (rc *Receiver) account(out Outcome, took time.Duration) {
	t := &rc.totals
	t.Requests++
	t.Spans += int64(out.Spans)
	rc.logf("%s", accountLine(out, took))
	switch {
	case out.Err != nil:
		t.Failed++
	case out.Result.Duplicate != "":
		t.Duplicates++
	case out.Result.FileID > 0:
		t.Stored++ // the events of its commit are counted once, by storeGroup
	}
}

// accountLine is the line printed for one request.
func accountLine(out Outcome, took time.Duration) string {
	ms := float64(took.Microseconds()) / 1000
	switch r := out.Result; {
	case out.Err != nil:
		return fmt.Sprintf("%s  %d spans  not stored: %s", out.Source, out.Spans, textsafe.Terminal(out.Err.Error()))
	case r.Duplicate != "":
		return fmt.Sprintf("%s  %d spans  already stored from %s, skipped", out.Source, out.Spans, r.Duplicate)
	case r.FileID == 0:
		msg := out.Message
		if msg == "" {
			msg = "nothing to store"
		}
		return fmt.Sprintf("%s  %d spans  %s", out.Source, out.Spans, msg)
	case out.Requests > 1:
		return fmt.Sprintf("%s  %d spans  %d rejected  committed in %s (%d requests: %d events stored + %d rejected)  (%.1f ms)",
			out.Source, out.Spans, out.RejectedSpans, out.Group, out.Requests, r.Events, r.Rejected, ms)
	default:
		return fmt.Sprintf("%s  %d spans  %d events stored + %d rejected  (%.1f ms)",
			out.Source, out.Spans, r.Events, r.Rejected, ms)
	}
}

// String is the closing summary line.
func (t Totals) String() string {
	s := fmt.Sprintf("%d requests: %d stored, %d duplicates, %d failed; %d spans -> %d events stored + %d rejected",
		t.Requests, t.Stored, t.Duplicates, t.Failed, t.Spans, t.Events, t.Rejected)
	if t.Skipped > 0 {
		s += fmt.Sprintf("; %d metrics/logs requests skipped", t.Skipped)
	}
	return s
}
