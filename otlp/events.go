package otlp

import "time"

// Event types and enum values of the contract that the mapping writes.
const (
	typeRun       = "run"
	typeStage     = "stage"
	typeModelCall = "model_call"
	typeToolCall  = "tool_call"
	typeTerminal  = "terminal"
)

// header holds the fields every event has. Seq counts a run's events in the
// order of their start times; ts is that start time (for terminal: the end
// of the run's root span).
type header struct {
	Type  string `json:"type"`
	RunID string `json:"run_id"`
	TS    string `json:"ts"`
	Seq   int    `json:"seq"`
}

// head gives access to the embedded header of every event.
func (h *header) head() *header { return h }

// event is any contract event.
type event interface{ head() *header }

// otelRef names the span an event came from (an extension of the contract:
// unknown fields are kept and queryable).
type otelRef struct {
	TraceID string `json:"trace_id"`
	SpanID  string `json:"span_id"`
}

// agentInfo is the run's agent.
type agentInfo struct {
	Name    string `json:"name,omitempty"`
	Version string `json:"version,omitempty"`
}

// runEvent is the contract's run event.
type runEvent struct {
	header
	Suite          string     `json:"suite"`
	Scenario       string     `json:"scenario,omitempty"`
	Agent          *agentInfo `json:"agent,omitempty"`
	StartedAt      string     `json:"started_at"`
	AgentID        string     `json:"agent_id,omitempty"`
	ConversationID string     `json:"conversation_id,omitempty"`
	Otel           otelRef    `json:"otel"`
}

// failure is a stage's failure object.
type failure struct {
	Category  string `json:"category"`
	Retryable bool   `json:"retryable"`
	Reason    string `json:"reason,omitempty"`
}

// stageEvent is the contract's stage event (planning only).
type stageEvent struct {
	header
	StageID   string   `json:"stage_id"`
	Stage     string   `json:"stage"`
	Attempt   int      `json:"attempt"`
	StartedAt string   `json:"started_at"`
	EndedAt   string   `json:"ended_at"`
	Outcome   string   `json:"outcome"`
	PlanValid *bool    `json:"plan_valid,omitempty"`
	Failure   *failure `json:"failure,omitempty"`
	Otel      otelRef  `json:"otel"`
}

// modelCallEvent is the contract's model_call event; provider, model and
// the token counts are extensions.
type modelCallEvent struct {
	header
	CallID       string  `json:"call_id"`
	Role         string  `json:"role"`
	StageID      string  `json:"stage_id,omitempty"`
	StartedAt    string  `json:"started_at"`
	EndedAt      string  `json:"ended_at"`
	Outcome      string  `json:"outcome"`
	Provider     string  `json:"provider,omitempty"`
	Model        string  `json:"model,omitempty"`
	InputTokens  *int64  `json:"input_tokens,omitempty"`
	OutputTokens *int64  `json:"output_tokens,omitempty"`
	Otel         otelRef `json:"otel"`
}

// toolError is a tool call's error object.
type toolError struct {
	Code      string `json:"code,omitempty"`
	Category  string `json:"category"`
	Retryable bool   `json:"retryable"`
	Message   string `json:"message,omitempty"`
}

// toolCallEvent is the contract's tool_call event.
type toolCallEvent struct {
	header
	CallID     string     `json:"call_id"`
	ActionID   string     `json:"action_id"`
	Attempt    int        `json:"attempt"`
	Recovery   string     `json:"recovery,omitempty"`
	RecoveryOf string     `json:"recovery_of,omitempty"`
	Tool       string     `json:"tool"`
	ArgsDigest string     `json:"args_digest,omitempty"`
	StartedAt  string     `json:"started_at"`
	EndedAt    string     `json:"ended_at"`
	Status     string     `json:"status"`
	Error      *toolError `json:"error,omitempty"`
	Otel       otelRef    `json:"otel"`
}

// terminalEvent is the contract's terminal event, written only when the
// run's root span states it (see terminalOf).
type terminalEvent struct {
	header
	Terminal      string   `json:"terminal"`
	Reason        string   `json:"reason,omitempty"`
	VisibleChars  *int64   `json:"visible_chars,omitempty"`
	DisclosedGaps *bool    `json:"disclosed_gaps,omitempty"`
	Degradations  []string `json:"degradations,omitempty"`
	// FinishReason is an extension: the model's finish reason (normalised)
	// when the terminal was read from a framework's answer (finish.go).
	FinishReason string  `json:"finish_reason,omitempty"`
	Otel         otelRef `json:"otel"`
}

// timestamp formats t as RFC 3339 in UTC with milliseconds.
func timestamp(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000Z07:00")
}

// refOf names the span s.
func refOf(s *span) otelRef {
	return otelRef{TraceID: s.traceID, SpanID: s.spanID}
}
