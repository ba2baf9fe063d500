// The Vercel AI SDK's generateText tool loop with its mock language model,
// traced by the SDK's own telemetry: AI SDK 6 (`experimental_telemetry`,
// ai.* spans) and AI SDK 7 (`@ai-sdk/otel`, GenAI semantic-convention spans).
import { z } from 'zod';
import * as ai5 from 'ai5';
import { MockLanguageModelV2 } from 'ai5/test';
import * as ai6 from 'ai6';
import { MockLanguageModelV3 } from 'ai6/test';
import * as ai7 from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { OpenTelemetry } from '@ai-sdk/otel';
import { scenarios, Recorder, modelLatency } from './scenarios.mjs';
import { setup, sleep } from './otel.mjs';

const schemas = {
  search: z.object({ query: z.string() }),
  weather: z.object({ city: z.string() }),
  book_flight: z.object({ to: z.string(), date: z.string() }),
  lookup_order: z.object({ id: z.number() }),
};

// mockModel replies with the scenario's turns in order, one per call. v2
// is the AI SDK 5 model interface (a plain finish reason and token counts).
function mockModel(Mock, scenario, rec, v2 = false) {
  let turn = 0;
  let callNo = 0;
  return new Mock({
    provider: 'mock-provider',
    modelId: 'mock-model',
    doGenerate: async () => {
      rec.modelCall();
      await sleep(modelLatency);
      const t = scenario.turns[turn++];
      const response = { id: `resp_${scenario.name}_${turn}`, timestamp: new Date(Date.now()), modelId: 'mock-model' };
      const usage = v2
        ? { inputTokens: 100 * turn, outputTokens: 20, totalTokens: 100 * turn + 20 }
        : {
            inputTokens: { total: 100 * turn, noCache: 100 * turn, cacheRead: 0, cacheWrite: 0 },
            outputTokens: { total: 20, text: 20, reasoning: 0 },
          };
      const finish = (unified, raw) => (v2 ? unified : { unified, raw });
      if (t.answer) {
        return { content: [{ type: 'text', text: t.answer }], finishReason: finish('stop', 'stop'), usage, response, warnings: [] };
      }
      const content = t.calls.map(([toolName, args]) => ({
        type: 'tool-call',
        toolCallId: `call_${++callNo}`,
        toolName,
        input: JSON.stringify(args),
      }));
      return { content, finishReason: finish('tool-calls', 'tool_calls'), usage, response, warnings: [] };
    },
  });
}

function toolsFor(sdk, rec) {
  const tools = {};
  for (const [name, inputSchema] of Object.entries(schemas)) {
    tools[name] = sdk.tool({
      description: `fake ${name}`,
      inputSchema,
      execute: (args) => rec.execute(name, args),
    });
  }
  return tools;
}

/** runAISDK5 runs every scenario with AI SDK 5 and returns spans and truth. */
export async function runAISDK5(version) {
  const { provider, exporter } = setup('a5', 'aisdk5-agent');
  const tracer = provider.getTracer('ai');
  const rec = new Recorder('Vercel AI SDK', 'ai', version);
  for (const s of scenarios) {
    rec.begin(s);
    const result = await ai5.generateText({
      model: mockModel(MockLanguageModelV2, s, rec, true),
      tools: toolsFor(ai5, rec),
      prompt: s.prompt,
      stopWhen: ai5.stepCountIs(6),
      maxRetries: 0,
      experimental_telemetry: { isEnabled: true, tracer, functionId: s.name },
    });
    rec.answer(result.text, result.finishReason);
  }
  await provider.forceFlush();
  return { spans: exporter.getFinishedSpans(), truth: rec.summary() };
}

/** runAISDK6 runs every scenario with AI SDK 6 and returns spans and truth. */
export async function runAISDK6(version) {
  const { provider, exporter } = setup('a6', 'aisdk6-agent');
  const tracer = provider.getTracer('ai');
  const rec = new Recorder('Vercel AI SDK', 'ai', version);
  for (const s of scenarios) {
    rec.begin(s);
    const result = await ai6.generateText({
      model: mockModel(MockLanguageModelV3, s, rec),
      tools: toolsFor(ai6, rec),
      prompt: s.prompt,
      stopWhen: ai6.stepCountIs(6),
      maxRetries: 0,
      experimental_telemetry: { isEnabled: true, tracer, functionId: s.name },
    });
    rec.answer(result.text, result.finishReason);
  }
  await provider.forceFlush();
  return { spans: exporter.getFinishedSpans(), truth: rec.summary() };
}

/** runAISDK7 runs every scenario with AI SDK 7 and returns spans and truth. */
export async function runAISDK7(version) {
  const { provider, exporter } = setup('a7', 'aisdk7-agent');
  const tracer = provider.getTracer('ai');
  const rec = new Recorder('Vercel AI SDK', 'ai', version);
  for (const s of scenarios) {
    rec.begin(s);
    const result = await ai7.generateText({
      model: mockModel(MockLanguageModelV4, s, rec),
      tools: toolsFor(ai7, rec),
      prompt: s.prompt,
      stopWhen: ai7.isStepCount(6),
      maxRetries: 0,
      telemetry: { functionId: s.name, integrations: new OpenTelemetry({ tracer }) },
    });
    rec.answer(result.text, result.finishReason);
  }
  await provider.forceFlush();
  return { spans: exporter.getFinishedSpans(), truth: rec.summary() };
}
