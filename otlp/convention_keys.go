package otlp

import "slices"

// The faultlens.* convention: the attributes and span events with which an
// OpenTelemetry-instrumented agent states every field of the contract, so
// that its spans decode into exactly the events it means instead of what
// the generic GenAI mapping can infer. docs/otel-convention.md is the
// user's reference; this file is the single table that both the decoder
// (convention.go) and the exporter (package export) follow, so the two
// cannot drift apart.

// Structural keys of the convention.
const (
	// KeyEventType on a span names the contract event the span carries:
	// run, stage, tool_call or model_call. A span without it (in a trace
	// that uses the convention) carries no event of its own.
	KeyEventType = "faultlens.event.type"
	// KeyRunID names the run of the span and of every span below it that
	// does not name one itself; without it the run id is the trace id.
	KeyRunID = "faultlens.run.id"
	// KeyTS overrides the event's ts (RFC 3339 string or Unix nanoseconds).
	// Without it ts is the span start for a run, the span end for other
	// spans, and the timestamp of a span event.
	KeyTS = "faultlens.event.ts"
	// KeySeq is the event's seq.
	KeySeq = "faultlens.event.seq"
	// KeySchemaVersion is the event's schema_version.
	KeySchemaVersion = "faultlens.event.schema_version"
	// KeyExtra holds, as a JSON object, the event's fields beyond those the
	// convention names (the contract keeps unknown fields). When a carrier
	// has it, the event's extension fields are exactly these: the decoder
	// adds no otel reference or model details of its own.
	KeyExtra = "faultlens.event.extra"
	// KeyStartedAt and KeyEndedAt give started_at and ended_at of an event
	// carried by a span event (a span's own times give them otherwise).
	KeyStartedAt = "faultlens.started_at"
	KeyEndedAt   = "faultlens.ended_at"
	// EventPrefix starts the name of a span event that carries a contract
	// event: "faultlens.evidence", "faultlens.terminal", and for an event
	// of a span type without times, "faultlens.model_call" and so on.
	EventPrefix = "faultlens."
)

// FieldKind is how a contract field is written as an attribute value.
type FieldKind int

// The kinds of contract fields.
const (
	KindString  FieldKind = iota // string attribute
	KindInt                      // int attribute
	KindBool                     // bool attribute
	KindStrings                  // array of strings
	KindTime                     // RFC 3339 string (or Unix nanoseconds as int)
)

// Field is one contract field and the attribute that carries it.
type Field struct {
	// Path is the contract field, nested objects dotted: "error.category".
	Path string
	// Key is the attribute key; GenAI and general OpenTelemetry attributes
	// where one exists (gen_ai.tool.name, error.type, ...).
	Key string
	// Kind is the attribute's value type.
	Kind FieldKind
}

// Fields shared by every event type (type, run_id and ts are structural).
var commonFields = []Field{
	{"seq", KeySeq, KindInt},
	{"schema_version", KeySchemaVersion, KindInt},
}

// typeFields lists, per event type, the fields carried by attributes.
// started_at and ended_at of span-carried events are the span's times.
var typeFields = map[string][]Field{
	"run": {
		{"suite", "faultlens.run.suite", KindString},
		{"scenario", "faultlens.scenario", KindString},
		{"fault.class", "faultlens.fault.class", KindString},
		{"fault.kind", "faultlens.fault.kind", KindString},
		{"fault.target_tool", "faultlens.fault.target_tool", KindString},
		{"fault.expect.action", "faultlens.fault.expect.action", KindString},
		{"fault.expect.terminal", "faultlens.fault.expect.terminal", KindString},
		{"agent.name", "gen_ai.agent.name", KindString},
		{"agent.version", "gen_ai.agent.version", KindString},
		{"client_message_id", "faultlens.run.client_message_id", KindString},
		{"caused_by.run_id", "faultlens.run.caused_by.run_id", KindString},
		{"caused_by.cause", "faultlens.run.caused_by.cause", KindString},
		{"task.kind", "faultlens.task.kind", KindString},
		{"task.requires_current_evidence", "faultlens.task.requires_current_evidence", KindBool},
		{"task.evidence_required", "faultlens.task.evidence_required", KindInt},
		{"task.min_grade", "faultlens.task.min_grade", KindString},
		{"deadline_ms", "faultlens.run.deadline_ms", KindInt},
		{"retry_budget", "faultlens.run.retry_budget", KindInt},
	},
	"stage": {
		{"stage_id", "faultlens.stage.id", KindString},
		{"stage", "faultlens.stage.name", KindString},
		{"attempt", "faultlens.attempt", KindInt},
		{"enqueued_at", "faultlens.enqueued_at", KindTime},
		{"outcome", "faultlens.outcome", KindString},
		{"plan_valid", keyPlanValid, KindBool},
		{"failure.category", "faultlens.error.category", KindString},
		{"failure.retryable", "faultlens.error.retryable", KindBool},
		{"failure.reason", "faultlens.error.message", KindString},
		{"visible_chars", "faultlens.visible_chars", KindInt},
		{"budget_ms", "faultlens.stage.budget_ms", KindInt},
	},
	"tool_call": {
		{"call_id", "gen_ai.tool.call.id", KindString},
		{"action_id", "faultlens.action_id", KindString},
		{"attempt", "faultlens.attempt", KindInt},
		{"recovery", "faultlens.recovery", KindString},
		{"recovery_of", "faultlens.recovery_of", KindString},
		{"tool", "gen_ai.tool.name", KindString},
		{"tool_version", "faultlens.tool.version", KindString},
		{"tool_schema", "faultlens.tool.schema", KindString},
		{"args_digest", "faultlens.tool.args_digest", KindString},
		{"side_effect", "faultlens.tool.side_effect", KindString},
		{"idempotency_key", "faultlens.tool.idempotency_key", KindString},
		{"enqueued_at", "faultlens.enqueued_at", KindTime},
		{"status", "faultlens.tool.status", KindString},
		{"error.code", "error.type", KindString},
		{"error.category", "faultlens.error.category", KindString},
		{"error.retryable", "faultlens.error.retryable", KindBool},
		{"error.retry_after_ms", "faultlens.error.retry_after_ms", KindInt},
		{"error.side_effect_state", "faultlens.error.side_effect_state", KindString},
		{"error.message", "faultlens.error.message", KindString},
		{"circuit", "faultlens.tool.circuit", KindString},
		{"source.name", "faultlens.source.name", KindString},
		{"source.grade", "faultlens.source.grade", KindString},
		{"source.fallback", "faultlens.source.fallback", KindBool},
		{"evidence_ids", "faultlens.tool.evidence_ids", KindStrings},
		{"completed_scope", "faultlens.tool.completed_scope", KindStrings},
		{"missing_scope", "faultlens.tool.missing_scope", KindStrings},
	},
	"model_call": {
		{"call_id", "faultlens.model_call.id", KindString},
		{"role", "faultlens.model_call.role", KindString},
		{"stage_id", "faultlens.stage.id", KindString},
		{"enqueued_at", "faultlens.enqueued_at", KindTime},
		{"outcome", "faultlens.outcome", KindString},
	},
	"evidence": {
		{"evidence_id", "faultlens.evidence.id", KindString},
		{"claim", "faultlens.evidence.claim", KindString},
		{"call_id", "faultlens.evidence.call_id", KindString},
		{"grade", "faultlens.evidence.grade", KindString},
		{"path", "faultlens.evidence.path", KindString},
		{"status", "faultlens.evidence.status", KindString},
	},
	"terminal": {
		{"terminal", keyTerminal, KindString},
		{"reason", keyTerminalReason, KindString},
		{"visible_chars", keyTerminalVisibleChars, KindInt},
		{"chunks_committed", "faultlens.terminal.chunks_committed", KindInt},
		{"chunks_rejected", "faultlens.terminal.chunks_rejected", KindInt},
		{"disclosed_gaps", keyTerminalDisclosedGaps, KindBool},
		{"degradations", keyTerminalDegradations, KindStrings},
	},
}

// spanTypes are the event types a span carries (they have a duration);
// evidence and terminal are instants and travel as span events.
var spanTypes = map[string]bool{"run": true, "stage": true, "tool_call": true, "model_call": true}

// Fields returns the fields the convention carries in attributes for one
// event type (nil for a type the contract does not have), shared fields
// first. started_at and ended_at are not among them: a span's times carry
// them, or KeyStartedAt and KeyEndedAt on a span event.
func Fields(eventType string) []Field {
	return slices.Clone(fieldsByType[eventType])
}

// fieldsByType is Fields for the decoder, built once.
var fieldsByType = func() map[string][]Field {
	m := make(map[string][]Field, len(typeFields))
	for typ, own := range typeFields {
		m[typ] = append(slices.Clone(commonFields), own...)
	}
	return m
}()

// SpanType reports whether events of this type are carried by spans of
// their own (run, stage, tool_call, model_call) rather than span events.
func SpanType(eventType string) bool { return spanTypes[eventType] }
