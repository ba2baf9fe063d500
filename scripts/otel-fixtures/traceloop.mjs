// OpenLLMetry (Traceloop's @traceloop/node-server-sdk): a hand-written agent
// loop over the OpenAI client, the client traced by Traceloop's OpenAI
// instrumentation, the loop by its workflow, task and tool decorators. The
// model is scripted through the client's fetch option (no network); a
// planning model call runs in a task named "planner".
import * as traceloop from '@traceloop/node-server-sdk';
import OpenAI from 'openai';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { scenarios, Recorder, modelLatency } from './scenarios.mjs';
import { resetClock, sleep } from './otel.mjs';

// The SDK's own id generator draws on Math.random: a seeded stream keeps
// trace and span ids stable across refreshes.
let rnd = 0x2545f491;
Math.random = () => {
  rnd ^= rnd << 13;
  rnd ^= rnd >>> 17;
  rnd ^= rnd << 5;
  return (rnd >>> 0) / 2 ** 32;
};

const toolDefs = {
  search: { query: 'string' },
  weather: { city: 'string' },
  book_flight: { to: 'string', date: 'string' },
  lookup_order: { id: 'number' },
};
const tools = Object.entries(toolDefs).map(([name, props]) => ({
  type: 'function',
  function: {
    name,
    description: `fake ${name}`,
    parameters: { type: 'object', properties: Object.fromEntries(Object.entries(props).map(([k, t]) => [k, { type: t }])) },
  },
}));

// scriptedFetch answers the client's chat completion requests with the
// scenario's turns, as the OpenAI API would.
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
          tool_calls: t.calls.map(([name, args]) => ({
            id: `call_${++state.callNo}`,
            type: 'function',
            function: { name, arguments: JSON.stringify(args) },
          })),
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

// agent runs one scenario: plan, then ask the model and run the tools it
// asks for (in parallel) until it answers. A tool's error goes back to the
// model as the tool's result, as hand-written loops do.
async function agent(client, s, rec) {
  await traceloop.withTask({ name: 'planner' }, () => {
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
      return choice.message.content;
    }
    const results = await Promise.all(
      choice.message.tool_calls.map(async (call) => {
        const args = JSON.parse(call.function.arguments);
        try {
          return await traceloop.withTool({ name: call.function.name }, (a) => rec.execute(call.function.name, a), args);
        } catch (err) {
          return { error: err.message };
        }
      }),
    );
    choice.message.tool_calls.forEach((call, i) => {
      messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(results[i]) });
    });
  }
  return null;
}

/** runTraceloop runs every scenario under Traceloop and returns spans and truth. */
export async function runTraceloop(version) {
  // Traceloop brings its own tracer provider and global registration (with
  // its own copy of @opentelemetry/api, which cannot register once a newer
  // copy has): generate.mjs runs it in a process of its own.
  resetClock();
  // The SDK's resource detectors would write this machine's host id and
  // process id into every fixture.
  process.env.OTEL_NODE_RESOURCE_DETECTORS = 'none';
  const exporter = new InMemorySpanExporter();
  traceloop.initialize({
    appName: 'traceloop-agent',
    apiKey: 'offline',
    baseUrl: 'http://127.0.0.1:9',
    exporter,
    disableBatch: true,
    silenceInitializationMessage: true,
    traceloopSyncEnabled: false,
    instrumentModules: { openAI: OpenAI },
  });
  const rec = new Recorder('OpenLLMetry (Traceloop)', '@traceloop/node-server-sdk', version);
  for (const s of scenarios) {
    rec.begin(s);
    const state = { scenario: s, turn: 0, callNo: 0 };
    const client = new OpenAI({ apiKey: 'offline', baseURL: 'http://127.0.0.1:9/v1', fetch: scriptedFetch(state, rec), maxRetries: 0 });
    await traceloop.withWorkflow({ name: s.name }, () => agent(client, s, rec));
  }
  await traceloop.forceFlush();
  return { spans: exporter.getFinishedSpans(), truth: rec.summary() };
}
