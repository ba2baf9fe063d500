package serve

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"syscall"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/faultlens/faultlens/serve/servetest"
	"github.com/faultlens/faultlens/store"
)

// nested sets key on sp to a key-value list nested depth levels deep.
func nested(sp ptrace.Span, key string, depth int) {
	v := sp.Attributes().PutEmptyMap(key)
	for range depth - 1 {
		v = v.PutEmptyMap("k")
	}
	v.PutStr("leaf", "x")
}

// deepRequest is 16 runs (80 spans) with one span holding an attribute
// nested depth levels deep.
func deepRequest(depth int) ptrace.Traces {
	td := servetest.Runs(0, 16)
	nested(td.ResourceSpans().At(0).ScopeSpans().At(0).Spans().At(3), "tool.args", depth)
	return td
}

// TestDeepAttributeStoredWholeOrRefusedWhole: a span whose attribute is
// nested 3,400 levels deep used to get the request 200 with an empty
// partial success while none of its spans was stored (encoding/json
// refused the re-encoded line). It is refused whole now, 400, nothing
// stored; nested 20 levels (the protobuf decoder refuses
// more than 100 messages deep, about 33 levels) it is stored whole.
func TestDeepAttributeStoredWholeOrRefusedWhole(t *testing.T) {
	for _, enc := range []string{"json", "proto"} {
		h := newHarness(t, Config{})
		build := servetest.Proto
		if enc == "json" {
			build = servetest.JSON
		}
		resp := h.post(build(deepRequest(3400)))
		if resp.Status != http.StatusBadRequest {
			t.Errorf("%s, 3400 deep: status %d, want 400 (%s)", enc, resp.Status, resp.Body)
		}
		resp = h.post(build(deepRequest(20)))
		if ps := exportResponse(t, resp).PartialSuccess(); ps.RejectedSpans() != 0 || ps.ErrorMessage() != "" {
			t.Errorf("%s, 20 deep: partial success %d %q", enc, ps.RejectedSpans(), ps.ErrorMessage())
		}
		db := h.closeAndOpen()
		if n := count(t, db, "SELECT count(DISTINCT run_id) FROM events"); n != 16 {
			t.Errorf("%s: %d runs stored, want 16 (the 20-deep request, whole)", enc, n)
		}
		if n := count(t, db, "SELECT count(*) FROM files"); n != 1 {
			t.Errorf("%s: %d files rows, want 1", enc, n)
		}
	}
}

// TestRetryableCauses: the database's state (locked, disk full,
// read-only) is answered 503, which exporters retry; anything else 500.
func TestRetryableCauses(t *testing.T) {
	cases := []struct {
		err  error
		want bool
	}{
		{store.ErrLocked, true},
		{fmt.Errorf("store events: %w", &net.OpError{Op: "write", Err: syscall.ENOSPC}), true},
		{errors.New(`IO Error: Could not write file "x.duckdb.wal": No space left on device`), true},
		{errors.New(`IO Error: Cannot open file "x.duckdb": Read-only file system`), true},
		{fmt.Errorf("%s", `Invalid Input Error: Cannot execute statement of type "INSERT" on database "x" which is attached in read-only mode!`), true},
		{errClosed, true},
		{errors.New(`Out of Memory Error: could not allocate block of size 256.0 KiB`), true},
		{&store.CauseError{Cause: store.ErrDiskFull, Err: errors.New("typed upstream")}, true},
		{errors.New("internal accounting error: 3 lines != 2 accepted + 0 rejected + 0 blank"), false},
	}
	for _, c := range cases {
		if got := retryable(c.err); got != c.want {
			t.Errorf("retryable(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
