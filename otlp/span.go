package otlp

import (
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// span is one OTLP span with the fields the mapping reads, resolved into
// the trace tree it belongs to.
type span struct {
	traceID   string
	spanID    string
	parentID  string
	name      string
	start     time.Time
	end       time.Time
	failed    bool
	statusMsg string
	attrs     pcommon.Map
	resource  pcommon.Map
	events    ptrace.SpanEventSlice
	role      role
	fam       *family // the instrumentation family that reads it (general when none claims it)
	order     int     // position in the input, the last tie-breaker of every sort
	parent    *span   // nil when the parent span is not in the input

	// raw, rawResource and rawScope keep the span as read, so that a
	// trace's spans can be stored and assembled with later inputs.
	raw         ptrace.Span
	rawResource pcommon.Resource
	rawScope    pcommon.InstrumentationScope
}

// newSpan copies what the mapping needs out of a pdata span.
func newSpan(s ptrace.Span, res pcommon.Resource, scope pcommon.InstrumentationScope, order int) *span {
	start := s.StartTimestamp().AsTime().UTC()
	end := s.EndTimestamp().AsTime().UTC()
	if end.Before(start) {
		// A span without an end time (or with a skewed one) would give a
		// negative duration; zero is the honest reading of "not recorded".
		end = start
	}
	sp := &span{
		traceID:   s.TraceID().String(),
		spanID:    s.SpanID().String(),
		parentID:  s.ParentSpanID().String(),
		name:      s.Name(),
		start:     start,
		end:       end,
		statusMsg: s.Status().Message(),
		attrs:     s.Attributes(),
		resource:  res.Attributes(),
		events:    s.Events(),
		order:     order,

		raw:         s,
		rawResource: res,
		rawScope:    scope,
	}
	sp.failed = spanFailed(s.Status().Code(), sp.attrs)
	sp.role, sp.fam = classify(sp)
	return sp
}

// spanFailed reads the outcome of a span: an explicit status wins; an unset
// status with an error.type attribute is a failure too, because the GenAI
// conventions require error.type exactly when the operation ended in error.
func spanFailed(code ptrace.StatusCode, attrs pcommon.Map) bool {
	switch code {
	case ptrace.StatusCodeError:
		return true
	case ptrace.StatusCodeOk:
		return false
	}
	return attrStr(attrs, "error.type") != ""
}

// attrStr returns the first non-empty attribute among keys, as a string.
func attrStr(m pcommon.Map, keys ...string) string {
	for _, k := range keys {
		if v, ok := m.Get(k); ok {
			if s := v.AsString(); s != "" {
				return s
			}
		}
	}
	return ""
}

// attrInt returns the first attribute among keys that holds an integer:
// an int, an integral double or a decimal string.
func attrInt(m pcommon.Map, keys ...string) (int64, bool) {
	for _, k := range keys {
		v, ok := m.Get(k)
		if !ok {
			continue
		}
		switch v.Type() {
		case pcommon.ValueTypeInt:
			return v.Int(), true
		case pcommon.ValueTypeDouble:
			if d := v.Double(); d == float64(int64(d)) {
				return int64(d), true
			}
		case pcommon.ValueTypeStr:
			if n, err := strconv.ParseInt(strings.TrimSpace(v.Str()), 10, 64); err == nil {
				return n, true
			}
		}
	}
	return 0, false
}

// attrBool returns the attribute key as a bool: a bool or the strings
// "true" and "false".
func attrBool(m pcommon.Map, key string) (bool, bool) {
	v, ok := m.Get(key)
	if !ok {
		return false, false
	}
	switch v.Type() {
	case pcommon.ValueTypeBool:
		return v.Bool(), true
	case pcommon.ValueTypeStr:
		if b, err := strconv.ParseBool(strings.TrimSpace(v.Str())); err == nil {
			return b, true
		}
	}
	return false, false
}

// attrStrings returns the attribute key as a list of strings: a slice of
// values, or a single comma-separated string.
func attrStrings(m pcommon.Map, key string) []string {
	v, ok := m.Get(key)
	if !ok {
		return nil
	}
	var out []string
	if v.Type() == pcommon.ValueTypeSlice {
		for i := range v.Slice().Len() {
			if s := strings.TrimSpace(v.Slice().At(i).AsString()); s != "" {
				out = append(out, s)
			}
		}
		return out
	}
	for _, s := range strings.Split(v.AsString(), ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
