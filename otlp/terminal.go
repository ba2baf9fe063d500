package otlp

import "strings"

// Attribute keys of a terminal the agent states on its run's root span.
// OTLP has no terminal state of its own, so without them no terminal event
// is written (see docs/otlp-mapping.md).
const (
	keyTerminal              = "faultlens.terminal"
	keyTerminalReason        = "faultlens.terminal.reason"
	keyTerminalVisibleChars  = "faultlens.terminal.visible_chars"
	keyTerminalDisclosedGaps = "faultlens.terminal.disclosed_gaps"
	keyTerminalDegradations  = "faultlens.terminal.degradations"
)

// terminalStates and terminalReasons are the contract's enums.
var (
	terminalStates  = setOf("completed", "partial", "failed", "cancelled")
	terminalReasons = setOf("ok", "planning_failed", "evidence_missing", "tool_unavailable",
		"stream_interrupted", "empty_completion", "budget_exhausted", "deadline_exceeded",
		"user_cancelled", "safety_refusal")
	degradationLevels = setOf("tool", "evidence", "delivery", "safety")
)

// terminalOf returns the terminal the root span states, or nil when it
// states none (or a value outside the contract's enum). Values outside the
// enums of reason and degradations are left out.
func terminalOf(root *span) *terminalEvent {
	state := strings.ToLower(attrStr(root.attrs, keyTerminal))
	if !terminalStates[state] {
		return nil
	}
	ev := &terminalEvent{header: header{Type: typeTerminal}, Terminal: state, Otel: refOf(root)}
	if reason := strings.ToLower(attrStr(root.attrs, keyTerminalReason)); terminalReasons[reason] {
		ev.Reason = reason
	}
	if n, ok := attrInt(root.attrs, keyTerminalVisibleChars); ok && n >= 0 {
		ev.VisibleChars = &n
	}
	if b, ok := attrBool(root.attrs, keyTerminalDisclosedGaps); ok {
		ev.DisclosedGaps = &b
	}
	for _, d := range attrStrings(root.attrs, keyTerminalDegradations) {
		if d = strings.ToLower(d); degradationLevels[d] {
			ev.Degradations = append(ev.Degradations, d)
		}
	}
	return ev
}

// setOf builds a set of strings.
func setOf(values ...string) map[string]bool {
	set := make(map[string]bool, len(values))
	for _, v := range values {
		set[v] = true
	}
	return set
}
