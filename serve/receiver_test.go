package serve

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/protobuf/proto"

	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"

	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/otlp"
	"github.com/faultlens/faultlens/serve/servetest"
	"github.com/faultlens/faultlens/store"
)

// harness is a receiver behind a test HTTP server, with its database file.
type harness struct {
	t    *testing.T
	rc   *Receiver
	srv  *httptest.Server
	path string
	log  bytes.Buffer
}

func newHarness(t *testing.T, cfg Config) *harness {
	t.Helper()
	h := &harness{t: t, path: filepath.Join(t.TempDir(), "served.duckdb")}
	cfg.DB = h.path
	cfg.Limits = store.Limits{Threads: 2, TempDir: t.TempDir()}
	cfg.Log = &h.log
	h.rc = New(cfg)
	h.srv = httptest.NewServer(h.rc.Handler())
	t.Cleanup(func() {
		h.srv.Close()
		if err := h.rc.Close(context.Background()); err != nil {
			t.Error(err)
		}
	})
	return h
}

func (h *harness) post(r servetest.Request) servetest.Response {
	h.t.Helper()
	resp, err := servetest.Post(h.srv.Client(), h.srv.URL+TracesPath, r)
	if err != nil {
		h.t.Fatal(err)
	}
	return resp
}

// postEncoded posts a JSON body labelled with the Content-Encoding enc
// as it is (servetest.Post would compress it) and returns the status.
func (h *harness) postEncoded(body, enc string) int {
	h.t.Helper()
	req, err := http.NewRequest(http.MethodPost, h.srv.URL+TracesPath, strings.NewReader(body))
	if err != nil {
		h.t.Fatal(err)
	}
	req.Header.Set("Content-Type", contentJSON)
	req.Header.Set("Content-Encoding", enc)
	resp, err := h.srv.Client().Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	if err := resp.Body.Close(); err != nil {
		h.t.Fatal(err)
	}
	return resp.StatusCode
}

// closeAndOpen stops the receiver and opens its database for checking.
func (h *harness) closeAndOpen() *sql.DB {
	h.t.Helper()
	h.srv.Close()
	if err := h.rc.Close(context.Background()); err != nil {
		h.t.Fatal(err)
	}
	db, err := store.Open(context.Background(), h.path, store.Limits{Threads: 2, TempDir: h.t.TempDir()})
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() {
		if err := db.Close(); err != nil {
			h.t.Error(err)
		}
	})
	return db
}

func count(t *testing.T, db *sql.DB, q string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := db.QueryRow(q, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

// eventsOf is how many contract events the file route makes of td.
func eventsOf(t *testing.T, td ptrace.Traces) int64 {
	t.Helper()
	var out bytes.Buffer
	if _, err := otlp.Convert(bytes.NewReader(servetest.JSONLine(td)), otlp.Options{}, &out); err != nil {
		t.Fatal(err)
	}
	return int64(bytes.Count(out.Bytes(), []byte("\n")))
}

// exportResponse decodes a 200 answer in the encoding of the request.
func exportResponse(t *testing.T, r servetest.Response) ptraceotlp.ExportResponse {
	t.Helper()
	if r.Status != http.StatusOK {
		t.Fatalf("status %d: %s", r.Status, r.Body)
	}
	er := ptraceotlp.NewExportResponse()
	var err error
	switch r.ContentType {
	case contentJSON:
		err = er.UnmarshalJSON(r.Body)
	case contentProto:
		err = er.UnmarshalProto(r.Body)
	default:
		t.Fatalf("content type %q", r.ContentType)
	}
	if err != nil {
		t.Fatal(err)
	}
	return er
}

// TestEncodings: JSON, protobuf and gzip requests are each stored as one
// files row named after the request, with exactly the events the file route
// makes of the same spans, and acknowledged without partial success.
func TestEncodings(t *testing.T) {
	h := newHarness(t, Config{})
	reqs := []servetest.Request{
		servetest.JSON(servetest.Runs(0, 2)),
		servetest.Proto(servetest.Runs(2, 3)),
		func() servetest.Request { r := servetest.JSON(servetest.Runs(5, 1)); r.Gzip = true; return r }(),
		func() servetest.Request { r := servetest.Proto(servetest.Runs(6, 1)); r.Gzip = true; return r }(),
	}
	for i, r := range reqs {
		resp := h.post(r)
		if resp.ContentType != r.ContentType {
			t.Errorf("request %d: answered in %q, sent %q", i, resp.ContentType, r.ContentType)
		}
		ps := exportResponse(t, resp).PartialSuccess()
		if ps.RejectedSpans() != 0 || ps.ErrorMessage() != "" {
			t.Errorf("request %d: partial success %d %q", i, ps.RejectedSpans(), ps.ErrorMessage())
		}
	}
	perRun := eventsOf(t, servetest.Runs(0, 1))
	if perRun != 5 {
		t.Fatalf("fixture: %d events per run, want 5 (run, 2 model calls, 2 tool calls)", perRun)
	}
	db := h.closeAndOpen()
	if n := count(t, db, "SELECT count(*) FROM events"); n != 7*perRun {
		t.Errorf("events = %d, want %d", n, 7*perRun)
	}
	if n := count(t, db, "SELECT count(DISTINCT run_id) FROM events"); n != 7 {
		t.Errorf("runs = %d, want 7", n)
	}
	if n := count(t, db, "SELECT count(*) FROM files WHERE regexp_full_match(path, 'http:127\\.0\\.0\\.1:\\d+#[1-4]') AND format = 'otlp'"); n != 4 {
		t.Errorf("files rows named http:<remote>#<n> = %d, want 4", n)
	}
	if got := h.rc.Totals(); got.Stored != 4 || got.Spans != int64(7*servetest.SpansPerRun) || got.Events != 7*perRun {
		t.Errorf("totals %+v", got)
	}
}

// statusOf decodes an error answer (a google.rpc.Status) in either encoding.
func statusOf(t *testing.T, r servetest.Response) (int32, string) {
	t.Helper()
	switch r.ContentType {
	case contentJSON:
		var s struct {
			Code    int32  `json:"code"`
			Message string `json:"message"`
		}
		if err := json.Unmarshal(r.Body, &s); err != nil {
			t.Fatalf("%s: %v", r.Body, err)
		}
		return s.Code, s.Message
	case contentProto:
		var s spb.Status
		if err := proto.Unmarshal(r.Body, &s); err != nil {
			t.Fatalf("%q: %v", r.Body, err)
		}
		return s.Code, s.Message
	}
	t.Fatalf("content type %q", r.ContentType)
	return 0, ""
}

// TestRefused: what cannot be read is answered 400 (or 405, 413, 415) with
// the reason, as the collector's receiver answers, and nothing of it is
// stored.
func TestRefused(t *testing.T) {
	h := newHarness(t, Config{MaxBody: 4096})
	big := servetest.JSON(servetest.Runs(0, 20)) // > 4 KiB
	bomb := servetest.Request{Body: bytes.Repeat([]byte(" "), 64<<10), ContentType: contentJSON, Gzip: true}
	truncated := servetest.Proto(servetest.Runs(0, 1))
	truncated.Body = truncated.Body[:len(truncated.Body)-7]
	cases := []struct {
		name   string
		req    servetest.Request
		status int
		code   int32
		msg    string
	}{
		{"malformed json", servetest.Request{Body: []byte(`{"resourceSpans": [`), ContentType: contentJSON}, 400, 3, "invalid ExportTraceServiceRequest"},
		{"truncated protobuf", truncated, 400, 3, "invalid ExportTraceServiceRequest"},
		{"not gzip", servetest.Request{Body: []byte("{}"), ContentType: "application/json; charset=utf-8", Gzip: false}, 200, 0, ""},
		{"too large", big, 413, 8, "larger than 4096 bytes"},
		{"gzip bomb", bomb, 413, 8, "larger than 4096 bytes once decompressed"},
	}
	for _, c := range cases {
		resp := h.post(c.req)
		if resp.Status != c.status {
			t.Errorf("%s: status %d, want %d (%s)", c.name, resp.Status, c.status, resp.Body)
			continue
		}
		if c.status == 200 {
			continue
		}
		code, msg := statusOf(t, resp)
		if code != c.code || !strings.Contains(msg, c.msg) {
			t.Errorf("%s: status {%d %q}, want code %d and %q", c.name, code, msg, c.code, c.msg)
		}
	}
	// A body that claims gzip but is not, and an encoding not supported.
	if code := h.postEncoded(`{}`, "gzip"); code != 400 {
		t.Errorf("bad gzip: status %d, want 400", code)
	}
	if code := h.postEncoded(`{}`, "br"); code != 400 {
		t.Errorf("unsupported encoding: status %d, want 400", code)
	}
	if resp := h.post(servetest.Request{Body: []byte("{}"), ContentType: "text/plain"}); resp.Status != 415 {
		t.Errorf("text/plain: %d", resp.Status)
	}
	resp, err := h.srv.Client().Get(h.srv.URL + TracesPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := resp.Body.Close(); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 405 {
		t.Errorf("GET: status %d, want 405", resp.StatusCode)
	}
	db := h.closeAndOpen()
	if n := count(t, db, "SELECT (SELECT count(*) FROM files) + (SELECT count(*) FROM events) + (SELECT count(*) FROM rejected_lines)"); n != 0 {
		t.Errorf("%d rows stored from refused requests", n)
	}
}

// TestPartialSuccess: runs are assembled by trace id, so a request that
// repeats a run already stored, beside a new one, replaces that run (no
// duplicate, nothing rejected). A span whose event validation refuses (a
// faultlens.attempt that is not a number) is rejected while the rest of the
// request is stored: the answer is 200 with partial_success naming how
// many and why, and the rejected event is listed under the request's name.
func TestPartialSuccess(t *testing.T) {
	h := newHarness(t, Config{})
	exportResponse(t, h.post(servetest.Proto(servetest.Runs(0, 1))))
	perRun := eventsOf(t, servetest.Runs(0, 1))
	for _, r := range []servetest.Request{servetest.Proto(servetest.Runs(0, 2)), servetest.JSON(servetest.Runs(1, 2))} {
		if ps := exportResponse(t, h.post(r)).PartialSuccess(); ps.RejectedSpans() != 0 {
			t.Errorf("repeated runs: %d rejected %q, want them replaced", ps.RejectedSpans(), ps.ErrorMessage())
		}
	}
	bad := servetest.Runs(3, 1)
	spans := bad.ResourceSpans().At(0).ScopeSpans().At(0).Spans()
	for i := 0; i < spans.Len(); i++ {
		if spans.At(i).Name() == "execute_tool fetch_page" {
			spans.At(i).Attributes().PutStr("faultlens.attempt", "two")
		}
	}
	ps := exportResponse(t, h.post(servetest.Proto(bad))).PartialSuccess()
	if ps.RejectedSpans() != 1 || !strings.Contains(ps.ErrorMessage(), "attempt") {
		t.Errorf("partial success: %d %q, want 1 naming attempt", ps.RejectedSpans(), ps.ErrorMessage())
	}
	// The very same request again (an exporter's retry) is skipped whole.
	if ps := exportResponse(t, h.post(servetest.Proto(bad))).PartialSuccess(); ps.RejectedSpans() != 0 {
		t.Errorf("retry: %d rejected", ps.RejectedSpans())
	}
	db := h.closeAndOpen()
	if n := count(t, db, "SELECT count(*) FROM events"); n != 4*perRun-1 {
		t.Errorf("events %d, want %d", n, 4*perRun-1)
	}
	if n := count(t, db, "SELECT count(*) FROM rejected_lines WHERE path LIKE 'http:%#4'"); n != 1 {
		t.Errorf("rejected lines of request 4: %d, want 1", n)
	}
	if n := count(t, db, "SELECT count(*) FROM files"); n != 4 {
		t.Errorf("files %d, want 4 (the retry is not a new one)", n)
	}
	if got := h.rc.Totals(); got.Duplicates != 1 || got.Rejected != 1 {
		t.Errorf("totals %+v", got)
	}
}

// TestPartialSuccessRepeatedTrace: an exporter sends part of a trace again
// (a retry of a request that partly differs) and a span of it still breaks
// a rule. The request re-converts the trace and its event is rejected again:
// the exporter is told so (1 rejected span), but the database and the
// receiver's totals count the rejection once, under the later request.
func TestPartialSuccessRepeatedTrace(t *testing.T) {
	h := newHarness(t, Config{})
	badAttempt := func(td ptrace.Traces) ptrace.Traces {
		spans := td.ResourceSpans().At(0).ScopeSpans().At(0).Spans()
		for i := 0; i < spans.Len(); i++ {
			if spans.At(i).Name() == "execute_tool fetch_page" {
				spans.At(i).Attributes().PutStr("faultlens.attempt", "two")
			}
		}
		return td
	}
	_, rest := servetest.Split(0)
	for i, td := range []ptrace.Traces{badAttempt(servetest.Runs(0, 1)), badAttempt(rest)} {
		ps := exportResponse(t, h.post(servetest.Proto(td))).PartialSuccess()
		if ps.RejectedSpans() != 1 || !strings.Contains(ps.ErrorMessage(), "1 wrong type for field attempt") {
			t.Errorf("request %d: partial success %d %q, want 1 naming attempt", i+1, ps.RejectedSpans(), ps.ErrorMessage())
		}
	}
	perRun := eventsOf(t, servetest.Runs(0, 1))
	if got := h.rc.Totals(); got.Stored != 2 || got.Rejected != 1 || got.Events != perRun-1 {
		t.Errorf("totals %+v, want 2 stored, %d events, 1 rejected", got, perRun-1)
	}
	db := h.closeAndOpen()
	if n := count(t, db, "SELECT count(*) FROM rejected_lines"); n != 1 {
		t.Errorf("rejected lines %d, want 1", n)
	}
	if n := count(t, db, "SELECT count(*) FROM rejected_lines WHERE path LIKE 'http:%#2'"); n != 1 {
		t.Errorf("rejected lines of request 2: %d, want 1", n)
	}
	if n := count(t, db, "SELECT count(*) FROM events"); n != perRun-1 {
		t.Errorf("events %d, want %d", n, perRun-1)
	}
}

// TestNoAgentSpans: spans of no agent run (an instrumented web service
// sends its HTTP spans too) are acknowledged with a warning and not stored.
func TestNoAgentSpans(t *testing.T) {
	h := newHarness(t, Config{})
	td := ptrace.NewTraces()
	sp := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty().Spans().AppendEmpty()
	sp.SetName("GET /")
	sp.SetTraceID(servetest.TraceID(9))
	sp.Attributes().PutStr("http.request.method", "GET")
	ps := exportResponse(t, h.post(servetest.JSON(td))).PartialSuccess()
	if ps.RejectedSpans() != 0 || ps.ErrorMessage() != "1 spans, none in an agent run: nothing stored" {
		t.Errorf("partial success %d %q", ps.RejectedSpans(), ps.ErrorMessage())
	}
	db := h.closeAndOpen()
	if n := count(t, db, "SELECT count(*) FROM files"); n != 0 {
		t.Errorf("files %d", n)
	}
}

// TestLogIsInert: the parser's message quotes the body; a terminal escape
// in it reaches the log inert.
func TestLogIsInert(t *testing.T) {
	body := []byte("\x1b]0;pwned\x07{")
	if _, err := decode(encJSON, body); err == nil || !strings.Contains(err.Error(), "\x1b") {
		t.Fatalf("fixture: the parser's message does not quote the escape: %v", err)
	}
	h := newHarness(t, Config{})
	h.post(servetest.Request{Body: body, ContentType: contentJSON})
	if strings.ContainsAny(h.log.String(), "\x1b\x07") {
		t.Errorf("escape in the log: %q", h.log.String())
	}
	if !strings.Contains(h.log.String(), "refused (400)") {
		t.Errorf("log: %q", h.log.String())
	}
}

// TestCacheFreshened: a request that adds runs to a cached suite makes its
// cache row stale, so a report read meanwhile counts them from the events,
// and the row is recomputed (metrics.Freshen) when the database is closed.
func TestCacheFreshened(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, Config{})
	exportResponse(t, h.post(servetest.Proto(servetest.Runs(0, 2))))
	cached := func() int64 {
		return count(t, h.rc.db, "SELECT count(*) FROM suite_metrics WHERE suite = ?", servetest.Service)
	}
	h.rc.mu.Lock()
	if err := h.rc.refresh(ctx); err != nil || cached() != 1 {
		t.Fatalf("refresh: %v, %d cached", err, cached())
	}
	h.rc.mu.Unlock()

	exportResponse(t, h.post(servetest.Proto(servetest.Runs(2, 1))))
	h.rc.mu.Lock()
	n := cached()
	rep, err := metrics.ReportBySuite(ctx, h.rc.db, metrics.Options{})
	h.rc.mu.Unlock()
	if err != nil || n != 1 || len(rep.Suites) != 1 || rep.Suites[0].Runs != 3 {
		t.Fatalf("after the second request: %d cached, report %v %+v", n, err, rep)
	}

	db := h.closeAndOpen()
	var text string
	if err := db.QueryRow("SELECT report::VARCHAR FROM suite_metrics WHERE suite = ?", servetest.Service).Scan(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, `"runs":3`) {
		t.Errorf("cache after close: %s", text)
	}
}

// TestIdleClose: the database is closed after the quiet spell and opened
// again by the next request; a reader can open it in between.
func TestIdleClose(t *testing.T) {
	h := newHarness(t, Config{IdleClose: 50 * time.Millisecond})
	isOpen := func() bool { h.rc.mu.Lock(); defer h.rc.mu.Unlock(); return h.rc.db != nil }
	exportResponse(t, h.post(servetest.Proto(servetest.Runs(0, 1))))
	deadline := time.Now().Add(10 * time.Second)
	for isOpen() {
		if time.Now().After(deadline) {
			t.Fatal("the database stayed open")
		}
		time.Sleep(10 * time.Millisecond)
	}
	exportResponse(t, h.post(servetest.Proto(servetest.Runs(1, 1))))
	if got := h.rc.Totals(); got.Stored != 2 {
		t.Fatalf("totals %+v", got)
	}
	db := h.closeAndOpen()
	if n := count(t, db, "SELECT count(DISTINCT run_id) FROM events"); n != 2 {
		t.Errorf("runs %d", n)
	}
}
