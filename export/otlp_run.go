package export

import (
	"crypto/sha256"
	"encoding/binary"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/otlp"
)

// Span structure of an exported run (docs/otel-convention.md, section 2):
// the run event is the root span (invoke_agent), every stage, tool call and
// model call a child span of it, and evidence and terminals are span events
// (evidence on the tool call that produced it). A run without a run event
// gets a root span that only names the run. Whatever a span cannot hold
// (a time outside what OTLP's Unix nanoseconds can hold, an end before the
// start) travels as a span event on the root with its times as attributes,
// so that nothing is clamped.

// runEncoder builds the spans of one run.
type runEncoder struct {
	runID   string
	traceID pcommon.TraceID
	spans   ptrace.SpanSlice
	root    ptrace.Span
	rootID  pcommon.SpanID
	next    uint64
	byCall  map[string]ptrace.Span // tool spans by call_id, for evidence
	lo, hi  time.Time              // the run's representable time range
}

// encodeRun appends the spans of one run (rows share a run_id) and its
// verdicts (none when v is nil).
func encodeRun(run []row, spans ptrace.SpanSlice, v *metrics.RunVerdict) error {
	e := &runEncoder{runID: run[0].fields["run_id"].(string), spans: spans, byCall: map[string]ptrace.Span{}}
	sum := sha256.Sum256([]byte("faultlens run " + e.runID))
	copy(e.traceID[:], sum[:16])
	e.bounds(run)
	rootAt := -1
	for i, r := range run {
		if r.fields["type"] == "run" && spanable(r, "run") {
			rootAt = i
			break
		}
	}
	if err := e.openRoot(run, rootAt); err != nil {
		return err
	}
	for i, r := range run {
		if i == rootAt {
			continue
		}
		typ, _ := r.fields["type"].(string)
		if otlp.SpanType(typ) && spanable(r, typ) {
			if err := e.childSpan(r, typ); err != nil {
				return err
			}
			continue
		}
		if err := e.spanEvent(r, typ); err != nil {
			return err
		}
	}
	e.putVerdicts(v)
	return nil
}

// spanID hands out the run's next span id, derived from the run id so that
// an export is reproducible.
func (e *runEncoder) spanID() pcommon.SpanID {
	e.next++
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], e.next)
	sum := sha256.Sum256(append([]byte("faultlens span "+e.runID+" "), b[:]...))
	var id pcommon.SpanID
	copy(id[:], sum[:8])
	if id.IsEmpty() {
		id[7] = 1
	}
	return id
}

// openRoot makes the root span: the run event's own span, or a span that
// only names the run.
func (e *runEncoder) openRoot(run []row, at int) error {
	e.root = e.spans.AppendEmpty()
	e.rootID = e.spanID()
	e.root.SetTraceID(e.traceID)
	e.root.SetSpanID(e.rootID)
	e.root.SetKind(ptrace.SpanKindInternal)
	attrs := e.root.Attributes()
	attrs.PutStr(otlp.KeyRunID, e.runID)
	if at < 0 {
		e.root.SetName("faultlens.run")
		setSpanTimes(e.root, e.lo, e.hi)
		return nil
	}
	r := run[at]
	start := r.fields["started_at"].(time.Time)
	e.root.SetName(spanName(r.fields, "run"))
	setSpanTimes(e.root, start, later(e.hi, start))
	attrs.PutStr("gen_ai.operation.name", "invoke_agent")
	return putEvent(attrs, r, "run", spanCarried{start: start})
}

// childSpan makes the span of a stage, tool call or model call (or of a
// further run event) under the root.
func (e *runEncoder) childSpan(r row, typ string) error {
	s := e.spans.AppendEmpty()
	s.SetTraceID(e.traceID)
	s.SetSpanID(e.spanID())
	s.SetParentSpanID(e.rootID)
	s.SetKind(ptrace.SpanKindInternal)
	s.SetName(spanName(r.fields, typ))
	start := r.fields["started_at"].(time.Time)
	carried := spanCarried{start: start}
	if typ != "run" {
		carried.end = r.fields["ended_at"].(time.Time)
		carried.hasEnd = true
	}
	setSpanTimes(s, start, later(carried.end, start))
	attrs := s.Attributes()
	switch typ {
	case "run":
		attrs.PutStr("gen_ai.operation.name", "invoke_agent")
	case "tool_call":
		attrs.PutStr("gen_ai.operation.name", "execute_tool")
		if id, ok := r.fields["call_id"].(string); ok {
			if _, dup := e.byCall[id]; !dup {
				e.byCall[id] = s
			}
		}
	case "model_call":
		attrs.PutStr("gen_ai.operation.name", "chat")
	}
	setStatus(s, r.fields, typ)
	return putEvent(attrs, r, typ, carried)
}

// spanEvent adds an event carried by a span event: evidence on the tool
// call span it names, everything else on the root.
func (e *runEncoder) spanEvent(r row, typ string) error {
	host := e.root
	if typ == "evidence" {
		if id, ok := r.fields["call_id"].(string); ok {
			if s, ok := e.byCall[id]; ok {
				host = s
			}
		}
	}
	ev := host.Events().AppendEmpty()
	ev.SetName(otlp.EventPrefix + typ)
	ts, _ := r.fields["ts"].(time.Time)
	if representable(ts) {
		ev.SetTimestamp(pcommon.NewTimestampFromTime(ts))
	}
	return putEvent(ev.Attributes(), r, typ, spanCarried{event: true})
}

// bounds finds the run's earliest and latest representable time, which
// the root span covers.
func (e *runEncoder) bounds(run []row) {
	for _, r := range run {
		for _, k := range []string{"ts", "enqueued_at", "started_at", "ended_at"} {
			t, ok := r.fields[k].(time.Time)
			if !ok || !representable(t) {
				continue
			}
			if e.lo.IsZero() || t.Before(e.lo) {
				e.lo = t
			}
			if t.After(e.hi) {
				e.hi = t
			}
		}
	}
	if e.lo.IsZero() {
		e.lo = time.Unix(0, 0).UTC()
	}
	e.hi = later(e.hi, e.lo)
}

// representable reports whether OTLP's unsigned Unix nanoseconds hold t
// (1970 to 2262), zero excluded: 0 means "not set" in OTLP.
func representable(t time.Time) bool {
	return t.After(time.Unix(0, 0)) && t.Before(time.Unix(0, 1<<63-1))
}

// spanable reports whether an event of a span type can be a span: its
// times are present, representable and in order.
func spanable(r row, typ string) bool {
	start, ok := r.fields["started_at"].(time.Time)
	if !ok || !representable(start) {
		return false
	}
	if typ == "run" {
		return true
	}
	end, ok := r.fields["ended_at"].(time.Time)
	return ok && representable(end) && !end.Before(start)
}

// setSpanTimes sets a span's start and end.
func setSpanTimes(s ptrace.Span, start, end time.Time) {
	s.SetStartTimestamp(pcommon.NewTimestampFromTime(start))
	s.SetEndTimestamp(pcommon.NewTimestampFromTime(end))
}

// later returns the later of two times.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// spanName follows the GenAI naming, "{operation} {target}".
func spanName(f map[string]any, typ string) string {
	str := func(k string) string { s, _ := f[k].(string); return s }
	switch typ {
	case "run":
		if a, ok := f["agent"].(map[string]any); ok {
			if n, ok := a["name"].(string); ok && n != "" {
				return "invoke_agent " + n
			}
		}
		return "invoke_agent"
	case "stage":
		return "stage " + str("stage")
	case "tool_call":
		return "execute_tool " + str("tool")
	}
	return "chat " + str("role")
}

// setStatus marks failed steps as errors for OTel backends (the decoder
// reads the convention's attributes, not the status).
func setStatus(s ptrace.Span, f map[string]any, typ string) {
	failed := false
	switch typ {
	case "tool_call":
		failed = f["status"] == "error" || f["status"] == "fast_fail"
	case "stage", "model_call":
		o, ok := f["outcome"].(string)
		failed = ok && o != "ok"
	}
	if !failed {
		return
	}
	s.Status().SetCode(ptrace.StatusCodeError)
	if e, ok := f["error"].(map[string]any); ok {
		if m, ok := e["message"].(string); ok {
			s.Status().SetMessage(m)
		}
	}
}
