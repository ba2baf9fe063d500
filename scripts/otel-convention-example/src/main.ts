// Runs the example agent with the OpenTelemetry JS SDK and writes its spans
// with the SDK's own OTLP/JSON serializer, one ExportTraceServiceRequest
// per line as the Collector's file exporter writes them:
//
//   npm ci && npm run fixture      # writes ../../otlp/testdata/convention/ts-sdk.json
//   faultlens report ../../otlp/testdata/convention/ts-sdk.json
import { writeFileSync } from "node:fs";
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { runAgent } from "./agent.js";

const out = process.argv[2] ?? "ts-sdk.json";
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({
  resource: resourceFromAttributes({ "service.name": "tiny-agent" }),
  spanProcessors: [new SimpleSpanProcessor(exporter)],
});
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(provider);

// Two runs: the first meets the timeout and re-sends, the second saves at once.
console.log(await runAgent("ts-run-1", "buy milk"));
console.log(await runAgent("ts-run-2", "call the plumber"));

await provider.forceFlush();
const body = JsonTraceSerializer.serializeRequest(exporter.getFinishedSpans());
if (!body) throw new Error("the serializer returned nothing");
writeFileSync(out, new TextDecoder().decode(body) + "\n");
console.log(`wrote ${exporter.getFinishedSpans().length} spans to ${out}`);
