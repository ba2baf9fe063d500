package otlp

import (
	"cmp"
	"strings"
	"time"
)

// toolCall is a tool_call event with what retry inference compares.
type toolCall struct {
	start, end time.Time
	spanID     string
	digest     string // "" when the span records no arguments: unknown, equal to nothing
	modelID    string // the call id the model gave, "" when none
	resend     bool   // the span states that it is a re-send (http.request.resend_count > 0)
	ev         *toolCallEvent
}

// keyResendCount is the OpenTelemetry attribute of a re-sent request
// (http.request.resend_count): an explicit link to the attempt before.
const keyResendCount = "http.request.resend_count"

// addToolCalls maps tool spans (already ordered by start time) and infers
// which of them are retries.
func (m *runMapper) addToolCalls(spans []*span, models []*span) {
	calls := make([]*toolCall, 0, len(spans))
	for _, s := range spans {
		modelID := s.str(fieldCallID)
		callID := m.callIDs.claim(cmp.Or(modelID, s.spanID), s.spanID)
		ev := &toolCallEvent{
			header:     header{Type: typeToolCall},
			CallID:     callID,
			ActionID:   callID,
			Attempt:    1,
			Tool:       toolName(s),
			ArgsDigest: argsDigest(s),
			StartedAt:  timestamp(s.start),
			EndedAt:    timestamp(s.end),
			Status:     statusOK,
			Otel:       refOf(s),
		}
		if s.failed {
			e := classifyError(s)
			ev.Status = statusError
			ev.Error = &toolError{Code: e.code, Category: e.category, Retryable: e.retryable, Message: e.message}
		}
		n, _ := attrInt(s.attrs, keyResendCount)
		calls = append(calls, &toolCall{start: s.start, end: s.end, spanID: s.spanID, digest: ev.ArgsDigest,
			modelID: modelID, resend: n > 0, ev: ev})
		m.add(rankSpan, s.start, s.order, ev)
	}
	starts := make([]time.Time, len(models))
	for i, s := range models {
		starts[i] = s.start
	}
	inferRetries(calls, starts)
}

// toolName reads the tool's name through the span's family, else from the
// span name.
func toolName(s *span) string {
	if name := s.str(fieldToolName); name != "" {
		return name
	}
	name := strings.TrimSpace(s.name)
	if f := s.fam; f != nil && f.spanTool != nil {
		name = f.spanTool(name)
	} else {
		name = genAISpanTool(name)
	}
	return cmp.Or(name, unknownToolName)
}
