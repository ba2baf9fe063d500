package otlp

import (
	"bytes"
	"cmp"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
)

// Attribute values become contract values as they are: a value of the
// wrong type (a string where the contract wants an integer, say) is passed
// on, and ingest rejects the event naming the field, as it would a JSON
// Lines event. Dropping it here would hide the agent's mistake.

// applyFields sets on ev each field whose attribute attrs holds.
func applyFields(ev map[string]any, fields []Field, attrs pcommon.Map) {
	for _, f := range fields {
		v, ok := attrs.Get(f.Key)
		if !ok {
			continue
		}
		if val := fieldValue(v, f.Kind); val != nil {
			setPath(ev, f.Path, val)
		}
	}
}

// fieldValue converts an attribute value for a field of the given kind:
// Unix nanoseconds become RFC 3339 for a time, a comma-separated string a
// list for an array, "true"/"false" a bool for a bool.
func fieldValue(v pcommon.Value, kind FieldKind) any {
	switch {
	case v.Type() == pcommon.ValueTypeEmpty:
		return nil
	case kind == KindTime && v.Type() == pcommon.ValueTypeInt:
		return timestampNano(v.Int())
	case kind == KindStrings && v.Type() == pcommon.ValueTypeStr:
		out := []any{}
		for _, s := range strings.Split(v.Str(), ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
		return out
	case kind == KindBool && v.Type() == pcommon.ValueTypeStr:
		if b, err := strconv.ParseBool(strings.TrimSpace(v.Str())); err == nil {
			return b
		}
	}
	return jsonSafe(v.AsRaw())
}

// jsonSafe replaces the float values JSON cannot hold (NaN, ±Inf) by their
// text, so that one odd attribute cannot fail the whole conversion.
func jsonSafe(v any) any {
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return strconv.FormatFloat(x, 'g', -1, 64)
		}
	case []any:
		for i := range x {
			x[i] = jsonSafe(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = jsonSafe(x[k])
		}
	}
	return v
}

// setPath sets a dotted path in ev, making the objects on the way.
func setPath(ev map[string]any, path string, val any) {
	keys := strings.Split(path, ".")
	m := ev
	for _, k := range keys[:len(keys)-1] {
		next, ok := m[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[k] = next
		}
		m = next
	}
	m[keys[len(keys)-1]] = val
}

// setTime sets field from a time attribute, when there is one.
func setTime(ev map[string]any, field string, attrs pcommon.Map, key string) {
	if v, ok := attrs.Get(key); ok {
		if val := fieldValue(v, KindTime); val != nil {
			ev[field] = val
		}
	}
}

// timestampNano formats Unix nanoseconds as RFC 3339 in UTC with as many
// fractional digits as needed (ingest keeps microseconds).
func timestampNano(ns int64) string {
	return time.Unix(0, ns).UTC().Format(time.RFC3339Nano)
}

// applyExtra merges the faultlens.event.extra object into ev and reports
// whether the attribute was there. Fields the convention names win a
// clash. Text that is not a JSON object is kept under the attribute's own
// name, so that nothing an agent wrote is lost.
func applyExtra(ev map[string]any, attrs pcommon.Map) bool {
	v, ok := attrs.Get(KeyExtra)
	if !ok {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(v.AsString())))
	dec.UseNumber()
	var extra map[string]any
	if err := dec.Decode(&extra); err != nil || dec.More() {
		ev[KeyExtra] = v.AsString()
		return true
	}
	mergeMissing(ev, extra)
	return true
}

// mergeMissing copies into dst what src has and dst lacks, object by
// object.
func mergeMissing(dst, src map[string]any) {
	for k, v := range src {
		have, ok := dst[k]
		if !ok {
			dst[k] = v
			continue
		}
		hm, ok1 := have.(map[string]any)
		vm, ok2 := v.(map[string]any)
		if ok1 && ok2 {
			mergeMissing(hm, vm)
		}
	}
}

// setDefault sets ev[key] unless it is set.
func setDefault(ev map[string]any, key string, val any) {
	if _, ok := ev[key]; !ok {
		ev[key] = val
	}
}

// complete fills the required fields an instrumented agent left out from
// what the span shows, as the generic mapping would: ids from the span id,
// outcome and error from the span status, the tool from gen_ai.tool.name or
// the span name. A field the span states is never replaced.
func (d *conventionDecoder) complete(ev map[string]any, typ string, s *span) {
	switch typ {
	case typeRun:
		setDefault(ev, "suite", cmp.Or(d.suite, attrStr(s.resource, "service.name"), defaultSuite))
	case typeStage:
		setDefault(ev, "stage_id", s.spanID)
		if _, ok := ev["outcome"]; !ok {
			outcome, err := outcomeOf(s)
			ev["outcome"] = outcome
			if err != nil {
				setDefault(ev, "failure", map[string]any{})
				f, ok := ev["failure"].(map[string]any)
				if !ok {
					return
				}
				setDefault(f, "category", err.category)
				setDefault(f, "retryable", err.retryable)
				if err.message != "" {
					setDefault(f, "reason", err.message)
				}
			}
		}
	case typeToolCall:
		setDefault(ev, "call_id", s.spanID)
		setDefault(ev, "action_id", ev["call_id"])
		setDefault(ev, "tool", toolName(s))
		if digest := argsDigest(s); digest != "" {
			setDefault(ev, "args_digest", digest)
		}
		if _, ok := ev["status"]; !ok {
			ev["status"] = statusOK
			if s.failed {
				ev["status"] = statusError
				completeError(ev, s)
			}
		}
	case typeModelCall:
		setDefault(ev, "call_id", s.spanID)
		role := modelRoleAnswer
		if st := enclosingStage(s); st != nil {
			id := cmp.Or(attrStr(st.attrs, "faultlens.stage.id"), st.spanID)
			setDefault(ev, "stage_id", id)
			if attrStr(st.attrs, "faultlens.stage.name") == stagePlanning {
				role = modelRolePlanner
			}
		}
		setDefault(ev, "role", role)
		if _, ok := ev["outcome"]; !ok {
			ev["outcome"], _ = outcomeOf(s) // a model call has no failure field: the outcome only
		}
	}
}

// completeError fills a failed tool call's error object from the span, as
// the generic mapping classifies it.
func completeError(ev map[string]any, s *span) {
	e := classifyError(s)
	setDefault(ev, "error", map[string]any{})
	obj, ok := ev["error"].(map[string]any)
	if !ok {
		return
	}
	if e.code != "" {
		setDefault(obj, "code", e.code)
	}
	setDefault(obj, "category", e.category)
	setDefault(obj, "retryable", e.retryable)
	if e.message != "" {
		setDefault(obj, "message", e.message)
	}
}

// enclosingStage returns the nearest convention stage span above s.
func enclosingStage(s *span) *span {
	seen := map[*span]bool{s: true}
	for p := s.parent; p != nil && !seen[p]; p = p.parent {
		seen[p] = true
		if attrStr(p.attrs, KeyEventType) == typeStage {
			return p
		}
	}
	return nil
}

// addSpanExtensions adds what the generic mapping adds beyond the contract
// (docs/otlp-mapping.md, section 3): the span's otel reference, and on a
// model call its provider, model and token counts; on a run its agent and
// conversation ids.
func addSpanExtensions(ev map[string]any, typ string, s *span) {
	setDefault(ev, "otel", map[string]any{"trace_id": s.traceID, "span_id": s.spanID})
	put := func(key, val string) {
		if val != "" {
			setDefault(ev, key, val)
		}
	}
	switch typ {
	case typeRun:
		put("agent_id", attrStr(s.attrs, "gen_ai.agent.id"))
		put("conversation_id", attrStr(s.attrs, "gen_ai.conversation.id", "session.id"))
	case typeModelCall:
		put("provider", attrStr(s.attrs, "gen_ai.provider.name", "gen_ai.system", "llm.provider", "llm.system"))
		put("model", attrStr(s.attrs, "gen_ai.response.model", "gen_ai.request.model", "llm.model_name"))
		if n, ok := attrInt(s.attrs, "gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens", "llm.token_count.prompt"); ok {
			setDefault(ev, "input_tokens", n)
		}
		if n, ok := attrInt(s.attrs, "gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens", "llm.token_count.completion"); ok {
			setDefault(ev, "output_tokens", n)
		}
	}
}
