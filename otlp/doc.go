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
// (invoke_agent, plan, chat, execute_tool, ...) or OpenInference
// (openinference.span.kind AGENT, CHAIN, LLM, TOOL, ...) become run, stage,
// model_call and tool_call events. What OTLP cannot express (evidence, the
// task, the agent's terminal claim) is left out rather than invented, so the
// gates that need it stay unknown or false. docs/otlp-mapping.md in the
// repository holds the full mapping table and the reasons behind it.
package otlp
