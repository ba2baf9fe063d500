// Package otlp converts OpenTelemetry traces in OTLP/JSON into faultlens
// contract events (JSON Lines), so the rest of the pipeline ingests them
// exactly like native JSONL traces.
//
// It reads both forms the OpenTelemetry Collector and SDKs produce: the
// Collector `file` exporter output (one OTLP/JSON object per line, where a
// line may hold spans, metrics or logs) and a single OTLP/JSON document per
// file, possibly pretty-printed. Spans are decoded with
// go.opentelemetry.io/collector/pdata; metric and log lines are counted and
// skipped.
//
// Each instrumentation family (the OpenTelemetry GenAI conventions,
// OpenInference, the Vercel AI SDK's own ai.* spans, OpenLLMetry/Traceloop)
// is defined once, in a family_*.go file: how it marks its spans and which
// attributes carry each field (family.go). Their spans become run, stage,
// model_call and tool_call events; the final answer and finish reason a
// framework records on the run's root span become its terminal (finish.go).
// Re-sends are inferred across the whole run, and arguments a span does not
// record are never equal to any (retries.go); a trace split over several
// inputs is assembled by trace id (Batch). What OTLP cannot express
// (evidence, the task) is left out rather than invented, so the gates that
// need it stay unknown. docs/otlp-mapping.md in the repository holds the
// full mapping table and the reasons behind it.
package otlp
