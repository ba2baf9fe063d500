package otlp

import (
	"cmp"
	"strings"
)

// toolCall is a tool_call event with what retry inference compares.
type toolCall struct {
	parent *span
	digest string
	ev     *toolCallEvent
}

// addToolCalls maps tool spans (already ordered by start time) and infers
// which of them are retries.
func (m *runMapper) addToolCalls(spans []*span) {
	calls := make([]*toolCall, 0, len(spans))
	for _, s := range spans {
		callID := m.callIDs.claim(cmp.Or(attrStr(s.attrs, "gen_ai.tool.call.id", "tool_call.id", "tool.id"), s.spanID), s.spanID)
		ev := &toolCallEvent{
			header:     header{Type: typeToolCall},
			CallID:     callID,
			ActionID:   callID,
			Attempt:    1,
			Tool:       toolName(s),
			ArgsDigest: argsDigest(s.attrs),
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
		calls = append(calls, &toolCall{parent: s.parent, digest: ev.ArgsDigest, ev: ev})
		m.add(rankSpan, s.start, s.order, ev)
	}
	inferRetries(calls)
}

// inferRetries marks re-sends. OpenTelemetry records each attempt of a
// handled retry as a span of its own and says nothing about which spans are
// attempts of one request, so faultlens infers it: among the tool calls
// under the same parent span, in start order, a call of the same tool with
// the same arguments (the same args digest, or none on either) as the call
// just before it, which failed, is the next attempt of that call's action.
// Every other call starts an action of its own.
func inferRetries(calls []*toolCall) {
	last := map[*span]*toolCall{}
	for _, c := range calls {
		prev := last[c.parent]
		last[c.parent] = c
		if prev == nil || prev.ev.Status != statusError || prev.ev.Tool != c.ev.Tool || prev.digest != c.digest {
			continue
		}
		c.ev.ActionID = prev.ev.ActionID
		c.ev.Attempt = prev.ev.Attempt + 1
		c.ev.Recovery = recoveryRetry
		c.ev.RecoveryOf = prev.ev.CallID
	}
}

// toolName reads the tool's name: gen_ai.tool.name, OpenInference's
// tool.name, else the span name without its "execute_tool " prefix.
func toolName(s *span) string {
	if name := attrStr(s.attrs, "gen_ai.tool.name", "tool.name"); name != "" {
		return name
	}
	name := strings.TrimSpace(s.name)
	if rest, ok := strings.CutPrefix(name, "execute_tool"); ok && (rest == "" || rest[0] == ' ') {
		name = strings.TrimSpace(rest)
	}
	return cmp.Or(name, unknownToolName)
}
