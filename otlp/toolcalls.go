package otlp

import (
	"cmp"
	"strings"
	"time"
)

// toolCall is a tool_call event with what retry inference compares.
type toolCall struct {
	start, end time.Time
	digest     string
	ev         *toolCallEvent
}

// addToolCalls maps tool spans (already ordered by start time) and infers
// which of them are retries.
func (m *runMapper) addToolCalls(spans []*span) {
	calls := make([]*toolCall, 0, len(spans))
	for _, s := range spans {
		callID := m.callIDs.claim(cmp.Or(attrStr(s.attrs, "gen_ai.tool.call.id", "tool_call.id", "tool.id", "ai.toolCall.id"), s.spanID), s.spanID)
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
		calls = append(calls, &toolCall{start: s.start, end: s.end, digest: ev.ArgsDigest, ev: ev})
		m.add(rankSpan, s.start, s.order, ev)
	}
	inferRetries(calls)
}

// inferRetries marks re-sends. OpenTelemetry records each attempt of a
// handled retry as a span of its own and says nothing about which spans are
// attempts of one request, so faultlens infers it, over the whole run and
// whatever the parent spans (agent frameworks put each step of their loop,
// and so a model's re-send of a failed call, under a new parent span):
//
// a tool call C is the next attempt of the action of an earlier call P when
// P is the latest call of the run, by start time, of the same tool with the
// same arguments (the same args digest, or none on either) that started
// before C, P failed, and P had ended when C started.
//
// Calls of other tools or arguments in between (parallel calls of the same
// step, other steps, model calls) do not break the link. A call that ran
// alongside P cannot be a reaction to P's failure, so it starts an action of
// its own, as does every call whose latest namesake succeeded.
func inferRetries(calls []*toolCall) {
	type key struct{ tool, digest string }
	last := map[key]*toolCall{}
	for _, c := range calls {
		k := key{c.ev.Tool, c.digest}
		prev := last[k]
		last[k] = c
		if prev == nil || prev.ev.Status != statusError || c.start.Before(prev.end) {
			continue
		}
		c.ev.ActionID = prev.ev.ActionID
		c.ev.Attempt = prev.ev.Attempt + 1
		c.ev.Recovery = recoveryRetry
		c.ev.RecoveryOf = prev.ev.CallID
	}
}

// toolName reads the tool's name: gen_ai.tool.name, OpenInference's
// tool.name, the AI SDK's ai.toolCall.name, else the span name without its "execute_tool " prefix.
func toolName(s *span) string {
	if name := attrStr(s.attrs, "gen_ai.tool.name", "tool.name", "ai.toolCall.name"); name != "" {
		return name
	}
	name := strings.TrimSpace(s.name)
	if rest, ok := strings.CutPrefix(name, "execute_tool"); ok && (rest == "" || rest[0] == ' ') {
		name = strings.TrimSpace(rest)
	}
	return cmp.Or(name, unknownToolName)
}
