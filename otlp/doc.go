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
// Spans that follow the OpenTelemetry GenAI semantic conventions
// (invoke_agent, plan, chat, execute_tool, ...), OpenInference
// (openinference.span.kind AGENT, CHAIN, LLM, TOOL, ...) or the Vercel AI
// SDK's own ai.* spans become run, stage, model_call and tool_call events;
// the final answer and finish reason a framework records on the run's root
// span become its terminal (finish.go). Re-sends are inferred across the
// whole run (toolcalls.go), and a trace split over several inputs is
// assembled by trace id (Batch). What OTLP cannot express (evidence, the
// task) is left out rather than invented, so the gates that need it stay
// unknown. docs/otlp-mapping.md in the
// repository holds the full mapping table and the reasons behind it.
package otlp
