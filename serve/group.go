package serve

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/faultlens/faultlens/ingest"
	"github.com/faultlens/faultlens/otlp"
)

// Group commit. A request costs the database a fixed price whatever its
// size: the contract validation statement every input goes through
// (docs/serve.md). Committing one request at a time, the receiver made as
// many requests per second with 16 clients as with 1. So requests are
// parsed in their handlers as they arrive and queued, and one committer
// takes every request waiting when it is ready, stores them as the lines of
// one OTLP input (one files row, one transaction), and then answers each.
// Nothing waits on purpose: while one commit runs, the next group gathers.

// DefaultMaxGroup and DefaultMaxGroupBytes bound one commit.
const (
	DefaultMaxGroup      = 256
	DefaultMaxGroupBytes = 64 << 20
)

// errGone marks a request whose client went away before its commit began;
// it is not stored (an exporter that timed out sends it again).
var errGone = errors.New("the client went away before the commit: not stored")

// pending is a parsed request waiting for the commit that holds it.
type pending struct {
	ctx    context.Context // the request's: done when the client has gone
	remote string
	req    request
	seq    int64        // its number, given when its group is formed
	done   chan Outcome // buffered: the committer never waits for the handler
}

func withGroupDefaults(cfg Config) Config {
	if cfg.InFlight <= 0 {
		cfg.InFlight = DefaultInFlight
	}
	if cfg.Queue <= 0 {
		cfg.Queue = DefaultQueue
	}
	if cfg.MaxGroup <= 0 {
		cfg.MaxGroup = DefaultMaxGroup
	}
	if cfg.MaxGroupBytes <= 0 {
		cfg.MaxGroupBytes = DefaultMaxGroupBytes
	}
	if cfg.RetryAfter <= 0 {
		cfg.RetryAfter = DefaultRetryAfter
	}
	return cfg
}

// commitLoop is the committer: it stores the queued requests group by
// group, and between groups lets waiting readers have the file (window.go).
func (rc *Receiver) commitLoop() {
	defer close(rc.stopped)
	tick := time.NewTicker(readerPoll)
	defer tick.Stop()
	for {
		first := rc.carry
		rc.carry = nil
		if first == nil {
			select {
			case first = <-rc.queue:
			case <-tick.C:
				rc.yieldToReaders()
				continue
			case <-rc.quit:
				rc.refuseQueued()
				return
			}
		}
		rc.commitGroup(rc.gather(first))
	}
}

// gather takes first and every request already queued, within the bounds
// of one commit; one that would pass the bytes bound waits for the next.
func (rc *Receiver) gather(first *pending) []*pending {
	group := []*pending{first}
	size := int64(len(first.req.doc))
	for len(group) < rc.cfg.MaxGroup {
		select {
		case p := <-rc.queue:
			if size+int64(len(p.req.doc)) > rc.cfg.MaxGroupBytes {
				rc.carry = p
				return group
			}
			group = append(group, p)
			size += int64(len(p.req.doc))
		default:
			return group
		}
	}
	return group
}

// refuseQueued answers what is still queued when the receiver stops.
func (rc *Receiver) refuseQueued() {
	for {
		select {
		case p := <-rc.queue:
			p.done <- Outcome{Source: sourceName(p.remote, 0), Spans: p.req.spans, Err: errClosed, Retryable: true}
		default:
			return
		}
	}
}

// commitGroup stores a group and answers each of its requests. Requests
// whose client has gone are dropped first; a group that fails for a reason
// of its content (not the database's state) is stored again one request at
// a time, so that one request that cannot be stored does not refuse the
// others.
func (rc *Receiver) commitGroup(group []*pending) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	defer rc.armIdle()
	start := time.Now()
	ctx := context.Background() // a transaction runs to its end or rolls back, never half way
	var live []*pending
	for _, p := range group {
		switch {
		case p.ctx.Err() != nil:
			rc.finish(p, Outcome{Source: sourceName(p.remote, 0), Spans: p.req.spans, Err: errGone}, start)
		case p.req.spans == 0:
			rc.seq++
			rc.finish(p, Outcome{Source: sourceName(p.remote, rc.seq)}, start)
		default:
			rc.seq++
			p.seq = rc.seq
			live = append(live, p)
		}
	}
	if len(live) == 0 {
		return
	}
	rc.yieldIfWaiting()
	outs, err := rc.storeGroup(ctx, live)
	if err != nil && !retryable(err) && len(live) > 1 {
		for _, p := range live {
			one, _ := rc.storeGroup(ctx, []*pending{p}) // each outcome holds its own error
			rc.finish(p, one[0], start)
		}
		return
	}
	for i, p := range live {
		rc.finish(p, outs[i], start)
	}
}

// finish accounts for one request and hands its outcome to its handler.
func (rc *Receiver) finish(p *pending, out Outcome, start time.Time) {
	rc.account(out, time.Since(start))
	p.done <- out
}

// groupName is the files row name of a group: the first request's name,
// and the number of the last request when there are several
// (http:<remote>#5-8 holds requests 5 to 8).
func groupName(live []*pending) string {
	name := sourceName(live[0].remote, live[0].seq)
	if len(live) > 1 {
		name += fmt.Sprintf("-%d", live[len(live)-1].seq)
	}
	return name
}

// storeGroup stores the requests of live in one transaction and returns
// the outcome of each, and the group's error if it failed. The caller
// holds rc.mu.
func (rc *Receiver) storeGroup(ctx context.Context, live []*pending) ([]Outcome, error) {
	name := groupName(live)
	outs := make([]Outcome, len(live))
	for i, p := range live {
		outs[i] = Outcome{Source: sourceName(p.remote, p.seq), Spans: p.req.spans, Group: name, Requests: len(live)}
	}
	fail := func(err error) ([]Outcome, error) {
		for i := range outs {
			outs[i].Err, outs[i].Retryable = err, retryable(err)
		}
		return outs, err
	}
	db, err := rc.open(ctx)
	if err != nil {
		return fail(err)
	}
	var doc bytes.Buffer
	for _, p := range live {
		doc.Write(p.req.doc)
		doc.WriteByte('\n')
	}
	stored, err := ingest.OTLP(ctx, db, &doc, name, ingest.Options{Suite: rc.cfg.Suite})
	res := stored.FileResult
	var none *otlp.NoAgentSpansError
	switch {
	case errors.As(err, &none):
		// Not an error for a receiver: an instrumented service sends its
		// HTTP and database spans too. Nothing of it is an agent run.
		for i := range outs {
			outs[i].Message = fmt.Sprintf("%d spans, none in an agent run: nothing stored", outs[i].Spans)
		}
		return outs, nil
	case err != nil:
		rc.dropInvalidated(err)
		return fail(err)
	}
	for i := range outs {
		outs[i].Result = res
	}
	if res.Duplicate != "" {
		return outs, nil // an exporter's retry of a request already stored
	}
	rc.cache.behind = true
	rc.totals.Events += res.Events
	rc.totals.Rejected += res.Rejected
	if res.Rejected > res.RejectedEvents {
		// A line of the group that is not OTLP/JSON: its request stored
		// nothing, and is answered so (parse refuses what it can see).
		if err := rc.refusedLines(ctx, db, res.FileID, outs); err != nil {
			return fail(fmt.Errorf("committed as %s, but its refused lines cannot be read: %w", name, err))
		}
	}
	if stored.RejectedSpans > 0 {
		rc.rejectedSpans(ctx, db, res, stored.RejectedSpans, live, outs)
	}
	return outs, nil
}

// rejectedSpans tells each request of a committed group how many of its
// events were rejected and why: by the traces of the request when the
// group holds several (each rejected event names its trace).
func (rc *Receiver) rejectedSpans(ctx context.Context, db dbQuerier, res ingest.FileResult, n int64, live []*pending, outs []Outcome) {
	if len(live) == 1 {
		outs[0].RejectedSpans = n
		msg, err := rejectedMessage(ctx, db, res, n)
		if err != nil {
			msg = fmt.Sprintf("%d events rejected; see faultlens rejected", n)
		}
		outs[0].Message = msg
		return
	}
	for i, p := range live {
		if outs[i].Err != nil {
			continue
		}
		k, msg, err := rejectedOfTraces(ctx, db, res, p.req.traces)
		if err != nil {
			k, msg = n, fmt.Sprintf("%d events of this commit rejected; see faultlens rejected", n)
		}
		outs[i].RejectedSpans, outs[i].Message = k, msg
	}
}

// dropInvalidated closes the database after an error that DuckDB made
// fatal for the open database (a write that failed on a full disk): every
// later statement would fail the same way until the file is opened again,
// so the next commit opens it, and succeeds once there is room again. The
// caller holds rc.mu.
func (rc *Receiver) dropInvalidated(err error) {
	if rc.db == nil || !strings.Contains(err.Error(), "database has been invalidated") {
		return
	}
	if cerr := rc.db.Close(); cerr != nil {
		rc.logf("close %s after a fatal error: %v", rc.cfg.DB, cerr)
	}
	rc.db = nil
}
