package serve

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/faultlens/faultlens/serve/servetest"
)

// pendingOf is td as the handler queues it, from remote; ctx is the
// client's.
func pendingOf(ctx context.Context, t testing.TB, td ptrace.Traces) *pending {
	t.Helper()
	doc, err := new(ptrace.JSONMarshaler).MarshalTraces(td)
	if err != nil {
		t.Fatal(err)
	}
	return &pending{ctx: ctx, remote: "127.0.0.1:9", done: make(chan Outcome, 1),
		req: request{spans: td.SpanCount(), doc: doc, traces: traceIDs(td)}}
}

// withBadAttempt makes the fetch_page span of td's runs break a contract
// rule (a faultlens.attempt that is not a number): its event is rejected.
func withBadAttempt(td ptrace.Traces) ptrace.Traces {
	spans := td.ResourceSpans().At(0).ScopeSpans().At(0).Spans()
	for i := range spans.Len() {
		if spans.At(i).Name() == "execute_tool fetch_page" {
			spans.At(i).Attributes().PutStr("faultlens.attempt", "two")
		}
	}
	return td
}

// TestGroupCommit: five queued requests form one commit. The one whose
// client has gone is not stored; the one that is not OTLP once read back
// is refused whole (400); the other three are stored in one files row,
// each told only of its own rejected span.
func TestGroupCommit(t *testing.T) {
	h := newHarness(t, Config{})
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	bg := context.Background()
	bad := pendingOf(bg, t, servetest.Runs(9, 1))
	bad.req.doc = []byte(`{"resourceSpans":"not a list"}`)
	group := []*pending{
		pendingOf(bg, t, servetest.Runs(0, 2)),
		pendingOf(gone, t, servetest.Runs(2, 1)),
		pendingOf(bg, t, withBadAttempt(servetest.Runs(3, 1))),
		bad,
		pendingOf(bg, t, servetest.Runs(4, 1)),
	}
	h.rc.commitGroup(group)
	outs := make([]Outcome, len(group))
	for i, p := range group {
		outs[i] = <-p.done
	}
	if !strings.HasSuffix(outs[0].Group, "#1-4") || outs[0].Requests != 4 {
		t.Errorf("group %q of %d requests, want #1-4 of 4", outs[0].Group, outs[0].Requests)
	}
	if outs[1].Err != errGone {
		t.Errorf("gone client: %v, want errGone", outs[1].Err)
	}
	if outs[0].Err != nil || outs[0].RejectedSpans != 0 || outs[4].Err != nil || outs[4].RejectedSpans != 0 {
		t.Errorf("clean requests: %+v / %+v", outs[0], outs[4])
	}
	if outs[2].RejectedSpans != 1 || !strings.Contains(outs[2].Message, "1 wrong type for field attempt") {
		t.Errorf("request with the bad span: %d %q", outs[2].RejectedSpans, outs[2].Message)
	}
	var he *httpError
	if outs[3].Err == nil || !asHTTP(outs[3].Err, &he) || he.status != http.StatusBadRequest {
		t.Errorf("unreadable request: %v, want a 400", outs[3].Err)
	}
	perRun := eventsOf(t, servetest.Runs(0, 1))
	if got := h.rc.Totals(); got.Stored != 3 || got.Failed != 2 || got.Events != 4*perRun-1 {
		t.Errorf("totals %+v, want 3 stored, 2 failed, %d events", got, 4*perRun-1)
	}
	db := h.closeAndOpen()
	if n := count(t, db, "SELECT count(*) FROM files"); n != 1 {
		t.Errorf("files %d, want 1 (one commit)", n)
	}
	if n := count(t, db, "SELECT count(DISTINCT run_id) FROM events"); n != 4 {
		t.Errorf("runs %d, want 4 (runs 0, 1, 3, 4; not 2 of the gone client)", n)
	}
	if n := count(t, db, "SELECT count(*) FROM otlp_spans WHERE trace_id = ?", servetest.TraceID(2).String()); n != 0 {
		t.Errorf("spans of the gone client's trace stored: %d", n)
	}
}

func asHTTP(err error, he **httpError) bool {
	e, ok := err.(*httpError)
	*he = e
	return ok
}

// TestGroupConcurrentClients: 16 clients at once are all stored and
// acknowledged, in at most as many commits as requests.
func TestGroupConcurrentClients(t *testing.T) {
	h := newHarness(t, Config{})
	const clients = 16
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := servetest.Post(h.srv.Client(), h.srv.URL+TracesPath, servetest.Proto(servetest.Runs(10*c, 10)))
			if err == nil && resp.Status != http.StatusOK {
				err = fmt.Errorf("client %d: status %d: %s", c, resp.Status, resp.Body)
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	perRun := eventsOf(t, servetest.Runs(0, 1))
	got := h.rc.Totals()
	if got.Stored != clients || got.Events != clients*10*perRun {
		t.Errorf("totals %+v, want %d stored, %d events", got, clients, clients*10*perRun)
	}
	db := h.closeAndOpen()
	if n := count(t, db, "SELECT count(DISTINCT run_id) FROM events"); n != clients*10 {
		t.Errorf("runs %d, want %d", n, clients*10)
	}
	if n := count(t, db, "SELECT count(*) FROM files"); n < 1 || n > clients {
		t.Errorf("files %d, want 1 to %d", n, clients)
	}
}
