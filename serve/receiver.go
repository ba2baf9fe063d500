// Package serve is faultlens's live OTLP/HTTP receiver: OpenTelemetry SDK
// exporters POST /v1/traces to it (protobuf or JSON, gzip or not). Each
// request is read within a memory budget and decoded as it arrives, then
// queued; one committer stores the queued requests together, as the lines
// of one OTLP input, through the same conversion, validation and accounting
// as an OTLP file (ingest.OTLP), in one transaction, and acknowledges each
// request after that commit (group commit, see group.go). Errors and
// partial success are answered as the OpenTelemetry Collector's
// otlpreceiver answers them.
package serve

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/faultlens/faultlens/ingest"
	"github.com/faultlens/faultlens/store"
	"github.com/faultlens/faultlens/textsafe"
)

// TracesPath is where OTLP/HTTP exporters send traces.
const TracesPath = "/v1/traces"

// Config sets up a Receiver.
type Config struct {
	// DB is the database file the requests are stored in.
	DB string
	// Limits are the DuckDB limits, and the lock wait used when the file
	// is opened for a burst of requests.
	Limits store.Limits
	// Suite names the run set of every run received ("" to take each
	// run's service.name, as ingest does).
	Suite string
	// MaxBody bounds a request body, compressed and decompressed;
	// 0 means DefaultMaxBody.
	MaxBody int64
	// IdleClose, when positive, closes the database once no request has
	// arrived for that long, so that readers (report --db, ui --db) can
	// open it between bursts. Zero keeps it open until Close.
	IdleClose time.Duration
	// RefreshEvery bounds how often the cached suite reports are
	// recomputed while requests keep arriving: at most once per
	// RefreshEvery, at an idle close, and once more that long after the
	// last if requests came since (see refresh.go). Zero means
	// DefaultRefreshEvery.
	RefreshEvery time.Duration
	// Log, when not nil, gets one accounting line per request; its write
	// errors are not reported (see logf).
	Log io.Writer

	// InFlight bounds the weighted bytes (memoryPerByte per body byte) of
	// the requests between their first byte and their answer; a request
	// that does not fit is answered 429. 0 means DefaultInFlight.
	InFlight int64
	// Queue bounds the parsed requests waiting for a commit; 0 means
	// DefaultQueue.
	Queue int
	// MaxGroup and MaxGroupBytes bound one commit: its requests, and the
	// bytes of their OTLP/JSON. 0 means DefaultMaxGroup, DefaultMaxGroupBytes.
	MaxGroup      int
	MaxGroupBytes int64
	// RetryAfter is what 429 and 503 answers tell the exporter to wait;
	// 0 means DefaultRetryAfter.
	RetryAfter time.Duration
	// BodyTimeout bounds the reading of one body (a client that sends it
	// slowly holds memory and a connection); 0 means no bound.
	BodyTimeout time.Duration
	// Token, when not empty, is the bearer token every request must carry
	// (Authorization: Bearer <token>).
	Token string
	// LoopbackOnly refuses requests whose Host or Origin header is not a
	// loopback name: a receiver on 127.0.0.1 is not for web pages.
	LoopbackOnly bool
}

// Receiver stores OTLP/HTTP trace requests in a faultlens database. Its
// handler is safe for concurrent requests; they are stored by one
// committer, many per transaction, since DuckDB has one writer.
type Receiver struct {
	cfg Config

	budget   budget
	queue    chan *pending
	quit     chan struct{} // closed by Close: the committer stops
	quitOnce sync.Once
	stopped  chan struct{} // closed by the committer when it has stopped
	carry    *pending      // owned by the committer: the request left for the next group

	logMu   sync.Mutex // serialises writes to cfg.Log
	mu      sync.Mutex // serialises the database work and guards the fields below
	db      *sql.DB    // nil while closed between bursts
	seq     int64      // requests received, numbering the sources
	idle    *time.Timer
	idleGen int64 // counts armings of idle, so a stale timer knows it
	totals  Totals
	closed  bool
	cache   cacheClock // when the suite cache was recomputed, and whether it is behind
	yields  int64      // times the database was closed for a waiting reader
}

// New returns a receiver for cfg; the database is opened by the first
// request.
func New(cfg Config) *Receiver {
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = DefaultMaxBody
	}
	if cfg.RefreshEvery <= 0 {
		cfg.RefreshEvery = DefaultRefreshEvery
	}
	cfg = withGroupDefaults(cfg)
	// An earlier writer may have left the cache behind (a crash after a
	// commit): the first close finds out, as ingest does after its files.
	rc := &Receiver{
		cfg: cfg, cache: cacheClock{behind: true},
		budget: budget{limit: cfg.InFlight}, queue: make(chan *pending, cfg.Queue),
		quit: make(chan struct{}), stopped: make(chan struct{}),
	}
	go rc.commitLoop()
	return rc
}

// Handler serves POST /v1/traces, and /v1/metrics and /v1/logs, which it
// reads and leaves out.
func (rc *Receiver) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc(TracesPath, rc.handleTraces)
	mux.HandleFunc(MetricsPath, metricsSignal.handle(rc))
	mux.HandleFunc(LogsPath, logsSignal.handle(rc))
	return rc.guard(mux)
}

// acceptPost answers 405 to anything but a POST and 415 to a body that is
// neither OTLP/JSON nor protobuf, as the collector's receiver does; ok
// says the request may be read, in encoding enc.
func acceptPost(w http.ResponseWriter, r *http.Request) (enc encoding, ok bool) {
	if r.Method != http.MethodPost {
		writePlain(w, http.StatusMethodNotAllowed, "405 method not allowed, supported: [POST]")
		return enc, false
	}
	if enc, ok = encodingOf(r); !ok {
		writePlain(w, http.StatusUnsupportedMediaType,
			fmt.Sprintf("415 unsupported media type, supported: [%s, %s]", contentJSON, contentProto))
	}
	return enc, ok
}

func (rc *Receiver) handleTraces(w http.ResponseWriter, r *http.Request) {
	enc, ok := acceptPost(w, r)
	if !ok {
		return
	}
	rc.bodyDeadline(w)
	m := &metered{b: &rc.budget}
	// The committer answers; the handler gives the bytes back once it has.
	defer m.release()
	req, err := parse(w, r, enc, rc.cfg.MaxBody, m)
	if err != nil {
		rc.refuse(w, r, enc, err)
		return
	}
	p := &pending{ctx: r.Context(), remote: r.RemoteAddr, req: req, done: make(chan Outcome, 1)}
	select {
	case rc.queue <- p:
	default:
		rc.refuse(w, r, enc, errBusy)
		return
	}
	out, answered := rc.await(p)
	if !answered {
		return // the client went away: nobody reads an answer
	}
	rc.answer(w, enc, out)
}

// bodyDeadline bounds the time the body may take to arrive.
func (rc *Receiver) bodyDeadline(w http.ResponseWriter) {
	if rc.cfg.BodyTimeout > 0 {
		// Not every ResponseWriter has deadlines (a test's recorder);
		// there is then nothing to bound.
		_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(rc.cfg.BodyTimeout))
	}
}

// await waits for the commit that holds p, or for its client to go. A
// request whose client has gone before its group is formed is dropped by
// the committer, never stored (group.go).
func (rc *Receiver) await(p *pending) (Outcome, bool) {
	select {
	case out := <-p.done:
		return out, true
	case <-rc.stopped:
		select {
		case out := <-p.done:
			return out, true
		default:
			return Outcome{Err: errClosed, Retryable: true}, true
		}
	case <-p.ctx.Done():
		return Outcome{}, false
	}
}

// refuse answers a request that cannot be read, and logs it.
func (rc *Receiver) refuse(w http.ResponseWriter, r *http.Request, enc encoding, err error) {
	var he *httpError
	switch {
	case errors.Is(err, errBusy):
		he = &httpError{http.StatusTooManyRequests, errBusy.Error()}
	case isTimeout(err):
		he = &httpError{http.StatusRequestTimeout, "request body not received in time: " + err.Error()}
	case !errors.As(err, &he):
		he = &httpError{http.StatusBadRequest, err.Error()}
	}
	// The parser's message quotes the body: untrusted, made inert.
	rc.logf("%s  refused (%d): %s", sourceName(r.RemoteAddr, 0), he.status, textsafe.Terminal(he.msg))
	if he.status == http.StatusTooManyRequests {
		writeBusy(w, enc, he.status, rc.cfg.RetryAfter, he.msg)
		return
	}
	writeStatus(w, enc, he.status, he.msg)
}

// parse reads and decodes the request, and encodes its traces as the
// OTLP/JSON that the file route reads, so that both go through one
// conversion. It runs before the request queues for the database, and the
// body is read through m, which bounds its memory.
func parse(w http.ResponseWriter, r *http.Request, enc encoding, limit int64, m *metered) (request, error) {
	body, err := readBody(w, r, limit, m)
	if err != nil {
		return request{}, err
	}
	er, err := decode(enc, body)
	if err != nil {
		return request{}, err
	}
	td := er.Traces()
	doc, err := new(ptrace.JSONMarshaler).MarshalTraces(td)
	if err != nil {
		return request{}, &httpError{http.StatusInternalServerError, "encode: " + err.Error()}
	}
	// The committer reads the document back with encoding/json, which
	// refuses values nested deeper than it allows: such a request is
	// refused whole here rather than dropped there.
	if !json.Valid(doc) {
		return request{}, &httpError{http.StatusBadRequest, "invalid ExportTraceServiceRequest: " + jsonProblem(doc)}
	}
	return request{spans: td.SpanCount(), doc: doc, traces: traceIDs(td)}, nil
}

// jsonProblem says why encoding/json refuses doc.
func jsonProblem(doc []byte) string {
	if err := json.Unmarshal(doc, new(json.RawMessage)); err != nil {
		return err.Error()
	}
	return "not valid JSON once re-encoded"
}

// traceIDs lists the distinct trace ids of td's spans, as otlp prints them.
func traceIDs(td ptrace.Traces) []string {
	seen := map[string]bool{}
	var ids []string
	rss := td.ResourceSpans()
	for i := range rss.Len() {
		sss := rss.At(i).ScopeSpans()
		for j := range sss.Len() {
			spans := sss.At(j).Spans()
			for k := range spans.Len() {
				id := spans.At(k).TraceID().String()
				if !seen[id] {
					seen[id] = true
					ids = append(ids, id)
				}
			}
		}
	}
	return ids
}

// request is a parsed request, ready to store.
type request struct {
	spans  int
	doc    []byte   // the traces as OTLP/JSON, on one line
	traces []string // the trace ids of its spans
}

// answer writes the response for a stored request.
func (rc *Receiver) answer(w http.ResponseWriter, enc encoding, out Outcome) {
	var he *httpError
	switch {
	case out.Err == nil:
	case errors.As(out.Err, &he):
		writeStatus(w, enc, he.status, he.msg)
		return
	case out.Retryable:
		writeBusy(w, enc, http.StatusServiceUnavailable, rc.cfg.RetryAfter, out.Err.Error())
		return
	default:
		writeStatus(w, enc, http.StatusInternalServerError, out.Err.Error())
		return
	}
	writeExport(w, enc, out.RejectedSpans, out.Message)
}

// sourceName is what a request's rejected lines and files row are recorded
// under: http:<remote address>#<request number>.
func sourceName(remote string, seq int64) string {
	if seq == 0 {
		return "http:" + remote
	}
	return fmt.Sprintf("http:%s#%d", remote, seq)
}

// Outcome is what became of one request.
type Outcome struct {
	Source string
	Spans  int
	// Group is the files row the request was committed in, and Requests
	// how many requests that commit held.
	Group    string
	Requests int
	Result   ingest.FileResult
	// RejectedSpans and Message are the partial success answered.
	RejectedSpans int64
	Message       string
	// Err is set when nothing was stored; Retryable says the exporter may
	// send the request again (the database was busy or is shutting down).
	Err       error
	Retryable bool
}

// errClosed answers requests that arrive while the receiver shuts down.
var errClosed = errors.New("faultlens serve is shutting down")

// logf writes one line to the log, if any. Requests are refused (and
// logged) outside rc.mu, so the log has a lock of its own. A write error
// is dropped: the line records a request already stored and answered, and
// a log that fails must not fail the receiver (a writer that cares keeps
// the error itself, as the serve command's does).
func (rc *Receiver) logf(format string, args ...any) {
	rc.logMu.Lock()
	defer rc.logMu.Unlock()
	if rc.cfg.Log != nil {
		_, _ = fmt.Fprintf(rc.cfg.Log, strings.TrimSuffix(format, "\n")+"\n", args...)
	}
}
