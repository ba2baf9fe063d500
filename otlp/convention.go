package otlp

import (
	"strings"

	"go.opentelemetry.io/collector/pdata/ptrace"
)

// A trace uses the faultlens.* convention when one of its spans names an
// event type or a run id. Such a trace is decoded from what its spans state
// (this file), not inferred by the generic GenAI mapping: the two would
// otherwise both claim its spans and count every tool call twice.

// usesConvention reports whether s types its event or names its run: then
// its trace is read by the convention alone. (faultlens.* attributes and
// span events on other traces complete the generic mapping instead; see
// completeRun.)
func usesConvention(s *span) bool {
	if _, ok := s.attrs.Get(KeyEventType); ok {
		return true
	}
	_, ok := s.attrs.Get(KeyRunID)
	return ok
}

// conventionEventType returns the contract type a span event carries:
// "faultlens.evidence" carries an evidence event, and so on.
func conventionEventType(e ptrace.SpanEvent) (string, bool) {
	typ, ok := strings.CutPrefix(e.Name(), EventPrefix)
	if !ok {
		return "", false
	}
	_, known := typeFields[typ]
	return typ, known
}

// splitConvention parts spans into those of traces that use the
// convention and the rest, both in input order.
func splitConvention(spans []*span) (conv, rest []*span) {
	marked := map[string]bool{}
	for _, s := range spans {
		if !marked[s.traceID] && usesConvention(s) {
			marked[s.traceID] = true
		}
	}
	if len(marked) == 0 {
		return nil, spans
	}
	for _, s := range spans {
		if marked[s.traceID] {
			conv = append(conv, s)
		} else {
			rest = append(rest, s)
		}
	}
	return conv, rest
}

// conventionRuns decodes the spans of convention traces into contract
// events, grouped by run in the order the runs first appear, each run's
// events in input order (a span's own event before its span events). It
// returns the events, the number of runs and how many spans carried or
// hosted an event. suite is the --suite fallback for runs that do not name
// their own.
func conventionRuns(spans []*span, suite string) (events []map[string]any, runs, used int) {
	byTrace := map[string][]*span{}
	var order []string
	for _, s := range spans {
		if _, ok := byTrace[s.traceID]; !ok {
			order = append(order, s.traceID)
		}
		byTrace[s.traceID] = append(byTrace[s.traceID], s)
	}
	d := &conventionDecoder{suite: suite, byRun: map[string][]map[string]any{}}
	for _, id := range order {
		linkParents(byTrace[id])
	}
	for _, s := range spans {
		if d.decodeSpan(s) {
			used++
		}
	}
	for _, id := range d.runOrder {
		events = append(events, d.byRun[id]...)
	}
	return events, len(d.runOrder), used
}

// conventionDecoder collects the decoded events by run.
type conventionDecoder struct {
	suite    string
	byRun    map[string][]map[string]any
	runOrder []string
}

// add files ev under its run.
func (d *conventionDecoder) add(ev map[string]any) {
	id, _ := ev["run_id"].(string)
	if _, ok := d.byRun[id]; !ok {
		d.runOrder = append(d.runOrder, id)
	}
	d.byRun[id] = append(d.byRun[id], ev)
}

// decodeSpan decodes the event a span carries and the events it hosts, and
// reports whether there was any.
func (d *conventionDecoder) decodeSpan(s *span) bool {
	runID := runIDOf(s)
	found, terminalEvents := false, false
	typ, typed := s.attrs.Get(KeyEventType)
	if typed {
		d.add(d.fromSpan(s, typ.AsString(), runID))
		found = true
	}
	for i := range s.events.Len() {
		e := s.events.At(i)
		if t, ok := conventionEventType(e); ok {
			d.add(d.fromSpanEvent(s, e, t, runID))
			found = true
			terminalEvents = terminalEvents || t == typeTerminal
		}
	}
	// The older form: terminal attributes on the run span (or, untyped, on
	// a top span), when no terminal span event states it.
	runSpan := typed && typ.AsString() == typeRun || !typed && s.parent == nil
	if t := terminalOnSpan(s); t != nil && runSpan && !terminalEvents {
		t["run_id"] = runID
		d.add(t)
		found = true
	}
	if !found {
		_, found = s.attrs.Get(KeyRunID)
	}
	return found
}

// runIDOf returns the faultlens.run.id of s or of the nearest span above
// it that states one, else the trace id.
func runIDOf(s *span) string {
	seen := map[*span]bool{}
	for p := s; p != nil && !seen[p]; p = p.parent {
		seen[p] = true
		if v, ok := p.attrs.Get(KeyRunID); ok {
			if id := v.AsString(); id != "" {
				return id
			}
		}
	}
	return s.traceID
}

// terminalOnSpan returns the terminal a span states with faultlens.terminal*
// attributes (docs/otlp-mapping.md, section 6), at the span's end; nil when
// it states none. Unlike the generic mapping it keeps every value, so a
// wrong one is rejected at ingest with the field named rather than dropped.
func terminalOnSpan(s *span) map[string]any {
	if _, ok := s.attrs.Get(keyTerminal); !ok {
		return nil
	}
	ev := map[string]any{"type": typeTerminal, "ts": timestampNano(s.end.UnixNano())}
	applyFields(ev, fieldsByType[typeTerminal], s.attrs)
	return ev
}

// fromSpan decodes the event a span carries.
func (d *conventionDecoder) fromSpan(s *span, typ, runID string) map[string]any {
	ev := map[string]any{"type": typ, "run_id": runID}
	applyFields(ev, fieldsByType[typ], s.attrs)
	ev["started_at"] = timestampNano(s.start.UnixNano())
	ts := s.end
	if typ == typeRun {
		ts = s.start
	} else {
		ev["ended_at"] = timestampNano(s.end.UnixNano())
	}
	ev["ts"] = timestampNano(ts.UnixNano())
	setTime(ev, "ts", s.attrs, KeyTS)
	d.complete(ev, typ, s)
	if !applyExtra(ev, s.attrs) {
		addSpanExtensions(ev, typ, s)
	}
	return ev
}

// fromSpanEvent decodes the event a span event carries; its run is its
// span's.
func (d *conventionDecoder) fromSpanEvent(host *span, e ptrace.SpanEvent, typ, runID string) map[string]any {
	attrs := e.Attributes()
	ev := map[string]any{"type": typ, "run_id": runID, "ts": timestampNano(int64(e.Timestamp()))}
	applyFields(ev, fieldsByType[typ], attrs)
	setTime(ev, "started_at", attrs, KeyStartedAt)
	setTime(ev, "ended_at", attrs, KeyEndedAt)
	setTime(ev, "ts", attrs, KeyTS)
	if typ == "evidence" {
		if _, ok := ev["call_id"]; !ok && attrStr(host.attrs, KeyEventType) == typeToolCall {
			if id := toolCallIDOf(host); id != "" {
				ev["call_id"] = id
			}
		}
	}
	if !applyExtra(ev, attrs) {
		ev["otel"] = map[string]any{"trace_id": host.traceID, "span_id": host.spanID}
	}
	return ev
}

// toolCallIDOf is the call id a convention tool span decodes to.
func toolCallIDOf(s *span) string {
	if v, ok := s.attrs.Get("gen_ai.tool.call.id"); ok {
		return v.AsString()
	}
	return s.spanID
}
