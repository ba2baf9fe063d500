// Sends GenAI agent spans to an OTLP/HTTP endpoint with the OpenTelemetry JS
// SDK's own exporters, and writes the very same spans, serialized by the
// SDK's own OTLP/JSON serializer, as collector file-exporter lines, so that
// the receiver's database can be compared with the file route.
//
//   node emit.mjs --url http://127.0.0.1:4318/v1/traces --protocol proto|json \
//                 [--gzip] [--runs 4] [--first 0] --lines spans.jsonl
//
// Each run is an invoke_agent root with a planning chat, a web_search tool
// call that succeeds, a fetch_page tool call that fails with a timeout
// (status ERROR, error.type, an exception event) and an answering chat.
// Every run is flushed on its own, so each one is at least one request.
import { appendFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

import { context, trace, SpanStatusCode, SpanKind } from '@opentelemetry/api';
import { CompressionAlgorithm } from '@opentelemetry/otlp-exporter-base';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OTLPTraceExporter as JSONExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';

const { values: opts } = parseArgs({
  options: {
    url: { type: 'string' },
    protocol: { type: 'string', default: 'proto' },
    gzip: { type: 'boolean', default: false },
    runs: { type: 'string', default: '4' },
    first: { type: 'string', default: '0' },
    lines: { type: 'string' },
  },
});
if (!opts.url || !opts.lines || !['proto', 'json'].includes(opts.protocol)) {
  console.error('usage: node emit.mjs --url URL --protocol proto|json [--gzip] [--runs N] [--first N] --lines FILE');
  process.exit(2);
}

const Exporter = opts.protocol === 'proto' ? ProtoExporter : JSONExporter;
const otlp = new Exporter({
  url: opts.url,
  compression: opts.gzip ? CompressionAlgorithm.GZIP : CompressionAlgorithm.NONE,
});

// tee hands each batch to the OTLP exporter and, once the receiver has
// acknowledged it, appends it to the lines file: the file then holds exactly
// what was acknowledged.
let failed = 0;
const tee = {
  export(spans, done) {
    otlp.export(spans, (result) => {
      if (result.code === 0) {
        appendFileSync(opts.lines, Buffer.concat([Buffer.from(JsonTraceSerializer.serializeRequest(spans)), Buffer.from('\n')]));
      } else {
        failed++;
        console.error(`export failed: ${result.error}`);
      }
      done(result);
    });
  },
  shutdown: () => otlp.shutdown(),
  forceFlush: () => otlp.forceFlush(),
};

const provider = new BasicTracerProvider({
  resource: resourceFromAttributes({ 'service.name': 'otel-js-e2e' }),
  spanProcessors: [new BatchSpanProcessor(tee, { scheduledDelayMillis: 50 })],
});
const tracer = provider.getTracer('faultlens-serve-e2e', '1.0.0');

// at returns a time ms milliseconds after the run's start.
const at = (start, ms) => new Date(start + ms);

function child(parent, name, attributes, start, from, to, fail) {
  const span = tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes, startTime: at(start, from) },
    trace.setSpan(context.active(), parent));
  if (fail) {
    span.setAttribute('error.type', fail.type);
    span.recordException({ name: fail.type, message: fail.message }, at(start, to));
    span.setStatus({ code: SpanStatusCode.ERROR, message: fail.message });
  }
  span.end(at(start, to));
}

const first = Number(opts.first);
const base = Date.UTC(2026, 10, 30, 3, 0, 0);
for (let n = first; n < first + Number(opts.runs); n++) {
  const start = base + n * 60_000;
  const root = tracer.startSpan('invoke_agent researcher', {
    kind: SpanKind.INTERNAL,
    startTime: at(start, 0),
    attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'researcher', 'gen_ai.provider.name': 'openai' },
  });
  const chat = { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4o' };
  child(root, 'chat gpt-4o', chat, start, 100, 900);
  child(root, 'execute_tool web_search', {
    'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'web_search', 'gen_ai.tool.call.id': `call_${n}_1`,
    'gen_ai.tool.call.arguments': JSON.stringify({ query: `question ${n}` }),
  }, start, 1000, 1500);
  child(root, 'execute_tool fetch_page', {
    'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'fetch_page', 'gen_ai.tool.call.id': `call_${n}_2`,
    'gen_ai.tool.call.arguments': JSON.stringify({ url: `https://example.org/${n}` }),
  }, start, 1600, 3600, { type: 'timeout', message: 'fetch_page timed out after 2000 ms' });
  child(root, 'chat gpt-4o', chat, start, 3700, 4500);
  root.end(at(start, 5000));
  await provider.forceFlush();
}
await provider.shutdown();
if (failed > 0) {
  console.error(`${failed} export(s) failed`);
  process.exit(1);
}
