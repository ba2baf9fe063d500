// Shared OpenTelemetry plumbing for the fixture generators: a fake clock and
// counter ids so that a refresh only changes what the frameworks changed, an
// in-memory exporter, and the SDK's own OTLP/JSON serializer writing
// collector-file-exporter lines (one ExportTraceServiceRequest per line).
import nodeCrypto from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';

// The fake clock starts at 2026-11-28T00:00:00Z and moves only when a fake
// model or tool says how long it took, so span times are reproducible.
const epoch = Date.UTC(2026, 10, 28);
let nowMs = epoch;
// Date() without arguments reads the fake clock too (the OpenAI Agents SDK
// stamps its spans with new Date()).
const RealDate = Date;
globalThis.Date = class FakeDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(nowMs);
    else super(...args);
  }
  static now() {
    return nowMs;
  }
};
Object.defineProperty(performance, 'timeOrigin', { value: epoch, configurable: true });
performance.now = () => nowMs - epoch;

// Seeded randomness: LangGraph names checkpoints with random UUIDs, which
// would change every refresh. A fixed xorshift stream stands in for the
// operating system's randomness in this generator process only.
const seedStart = 0x9e3779b9;
let seed = seedStart;
function nextByte() {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return seed & 0xff;
}
function fill(buf) {
  const bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  for (let i = 0; i < bytes.length; i++) bytes[i] = nextByte();
  return buf;
}
globalThis.crypto.getRandomValues = fill;
nodeCrypto.randomFillSync = fill;
nodeCrypto.randomUUID = () => {
  const b = fill(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Buffer.from(b).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};
globalThis.crypto.randomUUID = nodeCrypto.randomUUID;

/** advance moves the fake clock by ms milliseconds. */
export function advance(ms) {
  nowMs += ms;
}

/** sleep advances the clock across an await, as real work would. */
export async function sleep(ms) {
  await Promise.resolve();
  advance(ms);
}

// Counter ids: the fixture's seed byte, then a counter.
class CounterIds {
  constructor(seed) {
    this.seed = seed;
    this.traces = 0;
    this.spans = 0;
  }
  generateTraceId() {
    this.traces++;
    return this.seed + this.traces.toString(16).padStart(32 - this.seed.length, '0');
  }
  generateSpanId() {
    this.spans++;
    return this.seed.slice(0, 2) + this.spans.toString(16).padStart(14, '0');
  }
}

let contextSet = false;

/**
 * resetClock starts the fake clock and random stream afresh, for a
 * generator that brings its own tracer provider (Traceloop).
 */
export function resetClock() {
  seed = seedStart;
  nowMs = epoch;
}

/**
 * setup returns a tracer provider writing to memory, with counter ids that
 * start with seed (two hex digits), and the exporter holding its spans.
 */
export function setup(idSeed, serviceName) {
  // Each fixture starts its clock and random stream afresh, whatever ran
  // before it.
  resetClock();
  if (!contextSet) {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    contextSet = true;
  }
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({
    idGenerator: new CounterIds(idSeed),
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    spanProcessors: [new SimpleSpanProcessor({ exporter })],
  });
  return { provider, exporter };
}

/**
 * writeFixture serializes the finished spans with the SDK's JSON serializer,
 * one request per trace (as a batching exporter would send them), to path.
 */
export function writeFixture(path, spans) {
  const byTrace = new Map();
  for (const s of spans) {
    const id = s.spanContext().traceId;
    if (!byTrace.has(id)) byTrace.set(id, []);
    byTrace.get(id).push(s);
  }
  const lines = [];
  for (const group of byTrace.values()) {
    lines.push(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(group)));
  }
  writeFileSync(path, lines.join('\n') + '\n');
  return lines.length;
}

export { trace };
