// The OpenTelemetry contrib instrumentation of the OpenAI client
// (@opentelemetry/instrumentation-openai) under a hand-written agent loop
// whose own spans follow the GenAI conventions: invoke_agent for the run, a
// plan span around the planning call, execute_tool per tool. The model is
// scripted through the client's fetch option (no network).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { SpanStatusCode, context, trace } from '@opentelemetry/api';
import { OpenAIInstrumentation } from '@opentelemetry/instrumentation-openai';
import { scenarios, Recorder, modelLatency } from './scenarios.mjs';
import { setup, sleep } from './otel.mjs';

// The instrumentation supports openai ">=4.19.0 <7", installed as openai6.
// It patches the module's CommonJS exports; its require hook matches the
// name "openai" only, so the generator applies its patch to the alias.
const require = createRequire(import.meta.url);
const openai = require('openai6');
const openaiVersion = JSON.parse(readFileSync(new URL('./node_modules/openai6/package.json', import.meta.url), 'utf8')).version;

const tools = ['search', 'weather', 'book_flight', 'lookup_order'].map((name) => ({
  type: 'function',
  function: { name, description: `fake ${name}`, parameters: { type: 'object' } },
}));

// scriptedFetch answers chat completion requests with the scenario's turns.
function scriptedFetch(state, rec) {
  return async (_url, init) => {
    rec.modelCall();
    await sleep(modelLatency);
    const body = JSON.parse(init.body);
    const planning = body.messages[0]?.content?.startsWith('Plan:');
    const t = planning ? { answer: 'Plan: call the tools the request needs, then answer.' } : state.scenario.turns[state.turn++];
    const message = t.answer
      ? { role: 'assistant', content: t.answer }
      : {
          role: 'assistant',
          content: null,
          tool_calls: t.calls.map(([name, args]) => ({ id: `call_${++state.callNo}`, type: 'function', function: { name, arguments: JSON.stringify(args) } })),
        };
    const completion = {
      id: `chatcmpl_${state.scenario.name}_${state.turn}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: 'mock-model',
      choices: [{ index: 0, message, finish_reason: t.answer ? 'stop' : 'tool_calls' }],
      usage: { prompt_tokens: 100 * (state.turn + 1), completion_tokens: 20, total_tokens: 100 * (state.turn + 1) + 20 },
    };
    return new Response(JSON.stringify(completion), { status: 200, headers: { 'content-type': 'application/json' } });
  };
}

// within runs fn in a span of the tracer, ending it (with the error on a throw).
async function within(tracer, name, attributes, fn) {
  const span = tracer.startSpan(name, { attributes });
  try {
    return await context.with(trace.setSpan(context.active(), span), () => fn(span));
  } catch (err) {
    span.recordException(err);
    span.setAttribute('error.type', err.name);
    span.setStatus({ code: SpanStatusCode.ERROR, message: err.message });
    throw err;
  } finally {
    span.end();
  }
}

// agent runs one scenario as a hand-written loop would, tools of a step in
// parallel and a tool's error handed back to the model.
async function agent(tracer, client, s, rec) {
  await within(tracer, 'plan faultlens-agent', { 'gen_ai.operation.name': 'plan' }, () => {
    rec.planned();
    return client.chat.completions.create({ model: 'mock-model', messages: [{ role: 'user', content: `Plan: ${s.prompt}` }] });
  });
  const messages = [{ role: 'user', content: s.prompt }];
  for (let step = 0; step < 6; step++) {
    const res = await client.chat.completions.create({ model: 'mock-model', messages, tools });
    const choice = res.choices[0];
    messages.push(choice.message);
    if (!choice.message.tool_calls) {
      rec.answer(choice.message.content, choice.finish_reason);
      return choice;
    }
    const results = await Promise.all(
      choice.message.tool_calls.map((call) =>
        within(
          tracer,
          `execute_tool ${call.function.name}`,
          {
            'gen_ai.operation.name': 'execute_tool',
            'gen_ai.tool.name': call.function.name,
            'gen_ai.tool.call.id': call.id,
            'gen_ai.tool.call.arguments': call.function.arguments,
          },
          () => rec.execute(call.function.name, JSON.parse(call.function.arguments)),
        ).catch((err) => ({ error: err.message })),
      ),
    );
    choice.message.tool_calls.forEach((call, i) => {
      messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(results[i]) });
    });
  }
  return null;
}

/** runContribOpenAI runs every scenario and returns spans and truth. */
export async function runContribOpenAI(version) {
  const { provider, exporter } = setup('c1', 'contrib-openai-agent');
  const inst = new OpenAIInstrumentation({ captureMessageContent: true });
  inst.setTracerProvider(provider);
  for (const def of inst.getModuleDefinitions()) def.patch(openai, openaiVersion);
  const tracer = provider.getTracer('faultlens-agent');
  const rec = new Recorder('OpenTelemetry contrib OpenAI instrumentation', '@opentelemetry/instrumentation-openai', version);
  for (const s of scenarios) {
    rec.begin(s);
    const state = { scenario: s, turn: 0, callNo: 0 };
    const client = new openai.OpenAI({ apiKey: 'offline', baseURL: 'http://127.0.0.1:9/v1', fetch: scriptedFetch(state, rec), maxRetries: 0 });
    await within(tracer, 'invoke_agent faultlens-agent', { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'faultlens-agent' }, async (span) => {
      const choice = await agent(tracer, client, s, rec);
      if (choice) {
        span.setAttribute(
          'gen_ai.output.messages',
          JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: choice.message.content }], finish_reason: choice.finish_reason }]),
        );
      }
    });
  }
  await provider.forceFlush();
  return { spans: exporter.getFinishedSpans(), truth: rec.summary() };
}
