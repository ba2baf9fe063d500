package otlp

import (
	"bytes"
	"encoding/json"
	"strings"
)

// A trace without faultlens.event.type or faultlens.run.id is read by the
// generic GenAI mapping, and the convention then completes what it infers:
// an auto-instrumented agent (a framework's spans) can add the contract
// fields it knows (the run's task, a tool's side effect and idempotency
// key, ...) as faultlens.* attributes on those spans, and evidence and
// terminals as faultlens.* span events, without typing every span.

// completeRun returns the generic events of r with the convention's
// attributes of each event's span applied over them, followed by the
// events the run's spans carry as faultlens.* span events. A run whose
// spans state nothing of the convention is returned as it is.
func completeRun(r *run, events []event) []any {
	spans := append([]*span{r.root}, r.members...)
	if !anyConvention(spans) {
		out := make([]any, len(events))
		for i, ev := range events {
			out[i] = ev
		}
		return out
	}
	byID := make(map[string]*span, len(spans))
	for _, s := range spans {
		if _, dup := byID[s.spanID]; !dup {
			byID[s.spanID] = s
		}
	}
	out := make([]any, 0, len(events))
	callOf := map[string]string{} // span id → call id of its tool call
	for _, ev := range events {
		m, ok := eventMap(ev)
		if !ok {
			out = append(out, ev)
			continue
		}
		typ, _ := m["type"].(string)
		if src := byID[sourceSpan(ev)]; src != nil && typ != typeTerminal {
			applyFields(m, overlayFields[typ], src.attrs)
			if id, ok := m["call_id"].(string); ok && typ == typeToolCall {
				callOf[src.spanID] = id
			}
		}
		out = append(out, m)
	}
	d := &conventionDecoder{}
	for _, s := range spans {
		for i := range s.events.Len() {
			e := s.events.At(i)
			typ, ok := conventionEventType(e)
			if !ok {
				continue
			}
			ev := d.fromSpanEvent(s, e, typ, r.id)
			if id, ok := callOf[s.spanID]; ok && typ == "evidence" {
				setDefault(ev, "call_id", id)
			}
			out = append(out, ev)
		}
	}
	return out
}

// anyConvention reports whether a span states a faultlens.* attribute
// beyond those the generic mapping reads itself, or a faultlens.* span
// event.
func anyConvention(spans []*span) bool {
	for _, s := range spans {
		for _, f := range conventionKeys {
			if _, ok := s.attrs.Get(f); ok {
				return true
			}
		}
		for i := range s.events.Len() {
			if _, ok := conventionEventType(s.events.At(i)); ok {
				return true
			}
		}
	}
	return false
}

// overlayFields are the fields of each type carried by faultlens.*
// attributes. The GenAI attributes of the table (gen_ai.tool.call.id,
// error.type, ...) are the generic mapping's to read: it already has, and
// keeps call ids unique where a framework re-uses one for a re-send.
var overlayFields = func() map[string][]Field {
	m := map[string][]Field{}
	for typ, fields := range fieldsByType {
		for _, f := range fields {
			if strings.HasPrefix(f.Key, EventPrefix) {
				m[typ] = append(m[typ], f)
			}
		}
	}
	return m
}()

// conventionKeys are the faultlens.* attribute keys of the table that the
// generic mapping does not read by itself.
var conventionKeys = func() []string {
	generic := map[string]bool{keyScenario: true, keyPlanValid: true, keyTerminal: true, keyTerminalReason: true,
		keyTerminalVisibleChars: true, keyTerminalDisclosedGaps: true, keyTerminalDegradations: true}
	seen := map[string]bool{}
	var keys []string
	for _, fields := range fieldsByType {
		for _, f := range fields {
			if strings.HasPrefix(f.Key, EventPrefix) && !generic[f.Key] && !seen[f.Key] {
				seen[f.Key] = true
				keys = append(keys, f.Key)
			}
		}
	}
	return keys
}()

// eventMap renders a generic event as a JSON object, so that the
// convention's fields can be set on it.
func eventMap(ev event) (map[string]any, bool) {
	b, err := json.Marshal(ev)
	if err != nil {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	return m, dec.Decode(&m) == nil
}

// sourceSpan returns the id of the span a generic event came from.
func sourceSpan(ev event) string {
	switch e := ev.(type) {
	case *runEvent:
		return e.Otel.SpanID
	case *stageEvent:
		return e.Otel.SpanID
	case *modelCallEvent:
		return e.Otel.SpanID
	case *toolCallEvent:
		return e.Otel.SpanID
	case *terminalEvent:
		return e.Otel.SpanID
	}
	return ""
}
