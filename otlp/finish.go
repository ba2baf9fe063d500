package otlp

// What a framework's normal finish means for the gates. Agent frameworks
// end a run by returning the model's last answer, and record it with the
// model's finish reason on the run's root span (see answerOf). faultlens
// reads that as the framework's claim of how the run ended, and writes it as
// the run's terminal event:
//
//	finish reason          terminal    reason           visible_chars
//	stop (end_turn, ...)   completed   ok               characters of the answer
//	length (max_tokens)    partial     budget_exhausted characters of the answer
//	content-filter         failed      safety_refusal   characters of the answer
//	error                  failed      -                characters of the answer
//	anything else          no terminal (the loop stopped on tool calls, or says nothing)
//
// A root span with status ERROR and no answer ends in a failed terminal. So
// an answer with finish reason stop is a deliverable answer (visible_chars >
// 0) and a committed terminal; it is also a claimed completion, which makes
// a run whose evidence gate is unknown (OTLP carries no task) a masked
// success: the framework claims a completion that the trace cannot back.
// That is the contract's definition applied as is, and the text report says
// so. A terminal stated with faultlens.terminal always wins over this
// reading. docs/otlp-mapping.md has the table for users.

// finishTerminal derives the terminal of a run that states none from its
// framework's answer and finish reason, or returns nil.
func finishTerminal(r *run, models []*span) *terminalEvent {
	a := answerOf(r, models)
	ev := &terminalEvent{header: header{Type: typeTerminal}, Otel: refOf(r.root), FinishReason: a.finish}
	if a.found {
		n := visibleChars(a.text)
		ev.VisibleChars = &n
	}
	switch {
	case a.found && a.finish == "stop":
		ev.Terminal = "completed"
		if *ev.VisibleChars > 0 {
			ev.Reason = "ok"
		} else {
			ev.Reason = "empty_completion"
		}
	case a.found && a.finish == "length":
		ev.Terminal, ev.Reason = "partial", "budget_exhausted"
	case a.found && a.finish == "content-filter":
		ev.Terminal, ev.Reason = "failed", "safety_refusal"
	case a.found && a.finish == "error":
		ev.Terminal = "failed"
	case r.root.failed && (!a.found || a.finish == ""):
		ev.Terminal = "failed"
	default:
		return nil
	}
	return ev
}

// statesTerminalEvent reports whether a span of the run carries the
// convention's faultlens.terminal span event. The convention writes that as
// the run's terminal, so the framework's finish gives none: a run has one
// terminal, and what the agent states wins over what faultlens reads.
func statesTerminalEvent(r *run) bool {
	for _, s := range append([]*span{r.root}, r.members...) {
		for i := range s.events.Len() {
			if typ, ok := conventionEventType(s.events.At(i)); ok && typ == typeTerminal {
				return true
			}
		}
	}
	return false
}
