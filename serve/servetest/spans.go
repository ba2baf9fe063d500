// Package servetest builds the OpenTelemetry GenAI spans of small agent runs
// and sends them to a receiver the way an OTLP/HTTP exporter does, for the
// tests of package serve and of the serve command.
package servetest

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"net/http"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
)

// Service is the service.name of the runs built here, and so their suite.
const Service = "serve-test"

// Base is the start of run 0; run n starts n minutes later.
var Base = time.Date(2026, 11, 30, 2, 0, 0, 0, time.UTC)

// TraceID is the trace id of run n.
func TraceID(n int) pcommon.TraceID {
	var id pcommon.TraceID
	id[0] = 0xfa
	binary.BigEndian.PutUint64(id[8:], uint64(n)+1)
	return id
}

func spanID(n, k int) pcommon.SpanID {
	var id pcommon.SpanID
	binary.BigEndian.PutUint32(id[:4], uint32(n)+1)
	binary.BigEndian.PutUint32(id[4:], uint32(k)+1)
	return id
}

// span is one span of a run before it is written into pdata.
type span struct {
	k, parent  int // index in the run and its parent's (-1: the root)
	name       string
	from, to   time.Duration
	failed     bool
	statusMsg  string
	attributes []string // key, value, key, value ...
}

// runSpans are the spans of one run: an invoke_agent root, a planning chat,
// a web_search that succeeds, a fetch_page that fails with a timeout, and the
// answering chat. Roots come last, as SDKs export them (a span is exported
// when it ends).
func runSpans() []span {
	return []span{
		{1, 0, "chat gpt-4o", 100 * time.Millisecond, 900 * time.Millisecond, false, "",
			[]string{"gen_ai.operation.name", "chat", "gen_ai.request.model", "gpt-4o"}},
		{2, 0, "execute_tool web_search", time.Second, 1500 * time.Millisecond, false, "",
			[]string{"gen_ai.operation.name", "execute_tool", "gen_ai.tool.name", "web_search", "gen_ai.tool.call.id", "call_1"}},
		{3, 0, "execute_tool fetch_page", 1600 * time.Millisecond, 3600 * time.Millisecond, true, "deadline exceeded",
			[]string{"gen_ai.operation.name", "execute_tool", "gen_ai.tool.name", "fetch_page", "gen_ai.tool.call.id", "call_2", "error.type", "timeout"}},
		{4, 0, "chat gpt-4o", 3700 * time.Millisecond, 4500 * time.Millisecond, false, "",
			[]string{"gen_ai.operation.name", "chat", "gen_ai.request.model", "gpt-4o"}},
		{0, -1, "invoke_agent researcher", 0, 5 * time.Second, false, "",
			[]string{"gen_ai.operation.name", "invoke_agent", "gen_ai.agent.name", "researcher"}},
	}
}

// SpansPerRun is how many spans Runs writes per run.
var SpansPerRun = len(runSpans())

// Runs returns the spans of runs first..first+count-1 in one request.
func Runs(first, count int) ptrace.Traces {
	td := ptrace.NewTraces()
	rs := td.ResourceSpans().AppendEmpty()
	rs.Resource().Attributes().PutStr("service.name", Service)
	ss := rs.ScopeSpans().AppendEmpty()
	ss.Scope().SetName("faultlens-servetest")
	for n := first; n < first+count; n++ {
		appendRun(ss.Spans(), n, func(span) bool { return true })
	}
	return td
}

// Split returns the spans of run n in two requests: the child spans that
// end first, then the rest with the root, as a batching exporter may send
// them.
func Split(n int) (first, second ptrace.Traces) {
	build := func(keep func(span) bool) ptrace.Traces {
		td := ptrace.NewTraces()
		rs := td.ResourceSpans().AppendEmpty()
		rs.Resource().Attributes().PutStr("service.name", Service)
		ss := rs.ScopeSpans().AppendEmpty()
		ss.Scope().SetName("faultlens-servetest")
		appendRun(ss.Spans(), n, keep)
		return td
	}
	return build(func(s span) bool { return s.k == 1 || s.k == 2 }),
		build(func(s span) bool { return s.k != 1 && s.k != 2 })
}

func appendRun(out ptrace.SpanSlice, n int, keep func(span) bool) {
	start := Base.Add(time.Duration(n) * time.Minute)
	for _, s := range runSpans() {
		if !keep(s) {
			continue
		}
		sp := out.AppendEmpty()
		sp.SetTraceID(TraceID(n))
		sp.SetSpanID(spanID(n, s.k))
		if s.parent >= 0 {
			sp.SetParentSpanID(spanID(n, s.parent))
		}
		sp.SetName(s.name)
		sp.SetKind(ptrace.SpanKindInternal)
		sp.SetStartTimestamp(pcommon.NewTimestampFromTime(start.Add(s.from)))
		sp.SetEndTimestamp(pcommon.NewTimestampFromTime(start.Add(s.to)))
		for i := 0; i+1 < len(s.attributes); i += 2 {
			sp.Attributes().PutStr(s.attributes[i], s.attributes[i+1])
		}
		if s.failed {
			sp.Status().SetCode(ptrace.StatusCodeError)
			sp.Status().SetMessage(s.statusMsg)
		}
	}
}

// JSONLine is td as one OTLP/JSON line, as the collector's file exporter
// writes it.
func JSONLine(td ptrace.Traces) []byte {
	b, err := new(ptrace.JSONMarshaler).MarshalTraces(td)
	if err != nil {
		panic(err) // pdata built above always marshals
	}
	return append(b, '\n')
}

// Request is one export request's wire form.
type Request struct {
	Body        []byte
	ContentType string
	Gzip        bool
}

// Proto encodes td as an exporter does with the protobuf encoding.
func Proto(td ptrace.Traces) Request {
	b, err := ptraceotlp.NewExportRequestFromTraces(td).MarshalProto()
	if err != nil {
		panic(err)
	}
	return Request{Body: b, ContentType: "application/x-protobuf"}
}

// JSON encodes td as an exporter does with the JSON encoding.
func JSON(td ptrace.Traces) Request {
	b, err := ptraceotlp.NewExportRequestFromTraces(td).MarshalJSON()
	if err != nil {
		panic(err)
	}
	return Request{Body: b, ContentType: "application/json"}
}

// Response is a receiver's answer.
type Response struct {
	Status      int
	ContentType string
	Body        []byte
}

// Post sends r to url (the receiver's /v1/traces).
func Post(client *http.Client, url string, r Request) (Response, error) {
	body := r.Body
	if r.Gzip {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		if _, err := zw.Write(body); err != nil {
			return Response{}, fmt.Errorf("gzip: %w", err)
		}
		if err := zw.Close(); err != nil {
			return Response{}, fmt.Errorf("gzip: %w", err)
		}
		body = buf.Bytes()
	}
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return Response{}, err
	}
	req.Header.Set("Content-Type", r.ContentType)
	if r.Gzip {
		req.Header.Set("Content-Encoding", "gzip")
	}
	resp, err := client.Do(req)
	if err != nil {
		return Response{}, err
	}
	defer func() { _ = resp.Body.Close() }() // read to the end below; a close error changes nothing
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return Response{}, fmt.Errorf("read response: %w", err)
	}
	return Response{Status: resp.StatusCode, ContentType: resp.Header.Get("Content-Type"), Body: b}, nil
}
