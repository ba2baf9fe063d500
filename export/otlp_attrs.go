package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/faultlens/faultlens/otlp"
)

// spanCarried says how an event travels: on a span of its own (whose times
// give started_at and ended_at) or as a span event.
type spanCarried struct {
	event      bool
	start, end time.Time
	hasEnd     bool
}

// putEvent writes an event's fields as convention attributes. A field the
// convention has no attribute for on this type (a contract column the
// event's type does not use, say), and the unknown fields the contract
// keeps, go into faultlens.event.extra, so that nothing is lost.
func putEvent(attrs pcommon.Map, r row, typ string, c spanCarried) error {
	rest := clean(r.fields).(map[string]any)
	delete(rest, "type")
	delete(rest, "run_id")
	if !c.event {
		attrs.PutStr(otlp.KeyEventType, typ)
	}
	for _, f := range otlp.Fields(typ) {
		if v, ok := takePath(rest, f.Path); ok {
			putValue(attrs, f.Key, v)
		}
	}
	ts, _ := rest["ts"].(time.Time)
	delete(rest, "ts")
	if c.event {
		if !representable(ts) {
			attrs.PutStr(otlp.KeyTS, formatTime(ts))
		}
		for field, key := range map[string]string{"started_at": otlp.KeyStartedAt, "ended_at": otlp.KeyEndedAt} {
			if v, ok := rest[field]; ok {
				putValue(attrs, key, v)
				delete(rest, field)
			}
		}
	} else {
		def := c.start
		delete(rest, "started_at")
		if c.hasEnd {
			def = c.end
			delete(rest, "ended_at")
		}
		if !ts.Equal(def) {
			attrs.PutStr(otlp.KeyTS, formatTime(ts))
		}
	}
	extra, err := unknownFields(r.extra)
	if err != nil {
		return fmt.Errorf("run %s: extra: %w", r.fields["run_id"], err)
	}
	for k, v := range rest {
		extra = mergeInto(extra, k, jsonValue(v))
	}
	if extra == nil {
		// Written even when empty: it tells the decoder that these are all
		// the event's extension fields, so it adds no otel reference.
		extra = map[string]any{}
	}
	b, err := json.Marshal(extra)
	if err != nil {
		return fmt.Errorf("run %s: extra: %w", r.fields["run_id"], err)
	}
	attrs.PutStr(otlp.KeyExtra, string(b))
	return nil
}

// clean copies a stored value without its NULL struct fields. A struct
// whose fields are all NULL stays as an empty object: it was one in the
// trace.
func clean(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			if val != nil {
				out[k] = clean(val)
			}
		}
		return out
	case []any:
		return append([]any(nil), x...)
	}
	return v
}

// takePath removes a dotted path from m and returns its value. An object
// emptied by the removal goes too; one that was empty before stays.
func takePath(m map[string]any, path string) (any, bool) {
	head, tail, nested := cut(path)
	v, ok := m[head]
	if !ok {
		return nil, false
	}
	if !nested {
		delete(m, head)
		return v, true
	}
	sub, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	val, ok := takePath(sub, tail)
	if ok && len(sub) == 0 {
		delete(m, head)
	}
	return val, ok
}

// cut splits a dotted path at its first dot.
func cut(path string) (head, tail string, nested bool) {
	for i := range len(path) {
		if path[i] == '.' {
			return path[:i], path[i+1:], true
		}
	}
	return path, "", false
}

// putValue writes a stored value as an attribute of the natural type.
func putValue(attrs pcommon.Map, key string, v any) {
	switch x := v.(type) {
	case string:
		attrs.PutStr(key, x)
	case bool:
		attrs.PutBool(key, x)
	case int64:
		attrs.PutInt(key, x)
	case int32:
		attrs.PutInt(key, int64(x))
	case int:
		attrs.PutInt(key, int64(x))
	case float64:
		attrs.PutDouble(key, x)
	case time.Time:
		attrs.PutStr(key, formatTime(x))
	case []any:
		s := attrs.PutEmptySlice(key)
		for _, e := range x {
			s.AppendEmpty().SetStr(fmt.Sprint(e))
		}
	default:
		attrs.PutStr(key, fmt.Sprint(x))
	}
}

// jsonValue renders stored values for the extra object: timestamps as
// ingest keeps them.
func jsonValue(v any) any {
	switch x := v.(type) {
	case time.Time:
		return formatTime(x)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			out[k] = jsonValue(val)
		}
		return out
	}
	return v
}

// mergeInto sets extra[k] = v, merging objects key by key.
func mergeInto(extra map[string]any, k string, v any) map[string]any {
	if extra == nil {
		extra = map[string]any{}
	}
	have, ok1 := extra[k].(map[string]any)
	add, ok2 := v.(map[string]any)
	if !ok1 || !ok2 {
		extra[k] = v
		return extra
	}
	for sk, sv := range add {
		mergeInto(have, sk, sv)
	}
	return extra
}

// contractObjects are the contract's nested objects and their fields
// (trace-schema.md, section 3; the STRUCT columns of queries/schema.sql).
var contractObjects = map[string]map[string]any{
	"fault": {"class": nil, "kind": nil, "target_tool": nil,
		"expect": map[string]any{"action": nil, "terminal": nil}},
	"agent":     {"name": nil, "version": nil},
	"caused_by": {"run_id": nil, "cause": nil},
	"task":      {"kind": nil, "requires_current_evidence": nil, "evidence_required": nil, "min_grade": nil},
	"failure":   {"category": nil, "retryable": nil, "reason": nil},
	"error":     {"code": nil, "category": nil, "retryable": nil, "retry_after_ms": nil, "side_effect_state": nil, "message": nil},
	"source":    {"name": nil, "grade": nil, "fallback": nil},
}

// contractFields are the contract's top-level fields (the columns of
// queries/schema.sql's events table but file_id and extra).
var contractFields = map[string]bool{}

func init() {
	for _, k := range []string{"type", "run_id", "ts", "seq", "schema_version", "suite", "scenario",
		"client_message_id", "deadline_ms", "retry_budget", "stage_id", "stage", "attempt",
		"enqueued_at", "started_at", "ended_at", "outcome", "plan_valid", "visible_chars", "budget_ms",
		"call_id", "action_id", "recovery", "recovery_of", "tool", "tool_version", "tool_schema",
		"args_digest", "side_effect", "idempotency_key", "status", "circuit", "evidence_ids",
		"completed_scope", "missing_scope", "role", "evidence_id", "claim", "grade", "path",
		"terminal", "reason", "chunks_committed", "chunks_rejected", "disclosed_gaps", "degradations"} {
		contractFields[k] = true
	}
	for k := range contractObjects {
		contractFields[k] = true
	}
}

// unknownFields returns the fields of a raw event line that the contract
// does not name, nested ones inside their objects; nil for none.
func unknownFields(raw string) (map[string]any, error) {
	if raw == "" {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(raw)))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		return nil, err
	}
	var out map[string]any
	for k, v := range obj {
		if !contractFields[k] {
			out = mergeInto(out, k, v)
			continue
		}
		shape, isObj := contractObjects[k]
		sub, ok := v.(map[string]any)
		if !isObj || !ok {
			continue
		}
		if u := unknownIn(sub, shape); len(u) > 0 {
			out = mergeInto(out, k, u)
		}
	}
	return out, nil
}

// unknownIn returns the keys of obj that shape does not name, recursively.
func unknownIn(obj, shape map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range obj {
		known, ok := shape[k]
		if !ok {
			out[k] = v
			continue
		}
		subShape, isObj := known.(map[string]any)
		sub, ok := v.(map[string]any)
		if isObj && ok {
			if u := unknownIn(sub, subShape); len(u) > 0 {
				out[k] = u
			}
		}
	}
	return out
}
