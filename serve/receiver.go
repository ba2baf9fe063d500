// Package serve is faultlens's live OTLP/HTTP receiver: OpenTelemetry SDK
// exporters POST /v1/traces to it (protobuf or JSON, gzip or not) and each
// request is stored through the same conversion, validation and accounting
// as an OTLP file (ingest.OTLP), one transaction per request, before it is
// acknowledged. Errors and partial success are answered as the
// OpenTelemetry Collector's otlpreceiver answers them.
package serve

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/faultlens/faultlens/ingest"
	"github.com/faultlens/faultlens/otlp"
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
}

// Receiver stores OTLP/HTTP trace requests in a faultlens database. Its
// handler is safe for concurrent requests; they are stored one at a time,
// since DuckDB has one writer.
type Receiver struct {
	cfg Config

	logMu   sync.Mutex // serialises writes to cfg.Log
	mu      sync.Mutex // serialises the database work and guards the fields below
	db      *sql.DB    // nil while closed between bursts
	seq     int64      // requests received, numbering the sources
	idle    *time.Timer
	idleGen int64 // counts armings of idle, so a stale timer knows it
	totals  Totals
	closed  bool
	cache   cacheClock // when the suite cache was recomputed, and whether it is behind
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
	// An earlier writer may have left the cache behind (a crash after a
	// commit): the first close finds out, as ingest does after its files.
	return &Receiver{cfg: cfg, cache: cacheClock{behind: true}}
}

// Handler serves POST /v1/traces, and /v1/metrics and /v1/logs, which it
// reads and leaves out.
func (rc *Receiver) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc(TracesPath, rc.handleTraces)
	mux.HandleFunc(MetricsPath, metricsSignal.handle(rc))
	mux.HandleFunc(LogsPath, logsSignal.handle(rc))
	return mux
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
	req, err := parse(w, r, enc, rc.cfg.MaxBody)
	if err != nil {
		rc.refuse(w, r, enc, err)
		return
	}
	// Storing is not cancelled by the client going away: a transaction
	// runs to its end or rolls back, never half way.
	out := rc.store(context.WithoutCancel(r.Context()), r.RemoteAddr, req)
	rc.answer(w, enc, out)
}

// refuse answers a request that cannot be read, and logs it.
func (rc *Receiver) refuse(w http.ResponseWriter, r *http.Request, enc encoding, err error) {
	var he *httpError
	if !errors.As(err, &he) {
		he = &httpError{http.StatusBadRequest, err.Error()}
	}
	// The parser's message quotes the body: untrusted, made inert.
	rc.logf("%s  refused (%d): %s", sourceName(r.RemoteAddr, 0), he.status, textsafe.Terminal(he.msg))
	writeStatus(w, enc, he.status, he.msg)
}

// parse reads and decodes the request, and encodes its traces as the
// OTLP/JSON that the file route reads, so that both go through one
// conversion. It runs before the request queues for the database.
func parse(w http.ResponseWriter, r *http.Request, enc encoding, limit int64) (request, error) {
	body, err := readBody(w, r, limit)
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
	return request{spans: td.SpanCount(), doc: doc}, nil
}

// request is a parsed request, ready to store.
type request struct {
	spans int
	doc   []byte // the traces as OTLP/JSON
}

// answer writes the response for a stored request.
func (rc *Receiver) answer(w http.ResponseWriter, enc encoding, out Outcome) {
	if out.Err != nil {
		status := http.StatusInternalServerError
		if out.Retryable {
			status = http.StatusServiceUnavailable
		}
		writeStatus(w, enc, status, out.Err.Error())
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
	Result ingest.FileResult
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

// store ingests one request's traces (spans of them, as the OTLP/JSON doc)
// in one transaction. It returns only after the transaction committed or
// rolled back.
func (rc *Receiver) store(ctx context.Context, remote string, req request) Outcome {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.seq++
	out := Outcome{Source: sourceName(remote, rc.seq), Spans: req.spans}
	start := time.Now()
	defer func() { rc.account(out, time.Since(start)) }()
	defer rc.armIdle()
	if rc.closed {
		out.Err, out.Retryable = errClosed, true
		return out
	}
	if req.spans == 0 {
		return out
	}
	db, err := rc.open(ctx)
	if err != nil {
		out.Err, out.Retryable = err, errors.Is(err, store.ErrLocked)
		return out
	}
	stored, err := ingest.OTLP(ctx, db, bytes.NewReader(req.doc), out.Source, ingest.Options{Suite: rc.cfg.Suite})
	res := stored.FileResult
	out.Result = res
	var none *otlp.NoAgentSpansError
	switch {
	case errors.As(err, &none):
		// Not an error for a receiver: an instrumented service sends its
		// HTTP and database spans too. Nothing of it is an agent run.
		out.Message = fmt.Sprintf("%d spans, none in an agent run: nothing stored", out.Spans)
		return out
	case err != nil:
		out.Err = err
		return out
	case res.Duplicate != "":
		return out // an exporter's retry of a request already stored
	}
	rc.cache.behind = true
	if out.RejectedSpans = stored.RejectedSpans; out.RejectedSpans > 0 {
		out.Message, err = rejectedMessage(ctx, db, res, out.RejectedSpans)
		if err != nil {
			out.Message = fmt.Sprintf("%d events rejected; see faultlens rejected", out.RejectedSpans)
		}
	}
	return out
}

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
