// The OpenAI Agents SDK's run loop with a scripted Model (no network),
// traced through OpenInference's bridge from the SDK's own tracing events.
import * as agents from '@openai/agents';
import { OpenAIAgentsInstrumentation } from '@arizeai/openinference-instrumentation-openai-agents';
import { z } from 'zod';
import { scenarios, Recorder, modelLatency } from './scenarios.mjs';
import { setup, sleep } from './otel.mjs';

const schemas = {
  search: z.object({ query: z.string() }),
  weather: z.object({ city: z.string() }),
  book_flight: z.object({ to: z.string(), date: z.string() }),
  lookup_order: z.object({ id: z.number() }),
};

// ScriptedModel replies with a scenario's turns in order.
class ScriptedModel {
  constructor(scenario, rec) {
    this.scenario = scenario;
    this.rec = rec;
    this.turn = 0;
    this.callNo = 0;
  }
  // getResponse records a generation span as the SDK's own Chat Completions
  // model does (a custom Model gets none from the SDK).
  getResponse(request) {
    return agents.withGenerationSpan(async (span) => {
      span.spanData.model = 'scripted-model';
      span.spanData.model_config = {};
      const response = await this.reply();
      span.spanData.output = response.output;
      span.spanData.usage = { input_tokens: response.usage.inputTokens, output_tokens: response.usage.outputTokens };
      return response;
    });
  }
  async reply() {
    this.rec.modelCall();
    await sleep(modelLatency);
    const t = this.scenario.turns[this.turn++];
    const usage = new agents.Usage({ requests: 1, inputTokens: 100 * this.turn, outputTokens: 20, totalTokens: 100 * this.turn + 20 });
    const responseId = `resp_${this.scenario.name}_${this.turn}`;
    if (t.answer) {
      return {
        usage,
        responseId,
        output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: t.answer }] }],
      };
    }
    return {
      usage,
      responseId,
      output: t.calls.map(([name, args]) => ({
        type: 'function_call',
        callId: `call_${++this.callNo}`,
        name,
        arguments: JSON.stringify(args),
        status: 'completed',
      })),
    };
  }
  // eslint-disable-next-line require-yield
  async *getStreamedResponse() {
    throw new Error('the scripted model does not stream');
  }
}

/** runOpenAIAgents runs every scenario and returns spans and truth. */
export async function runOpenAIAgents(version) {
  const { provider, exporter } = setup('0a', 'openai-agents');
  const instrumentation = new OpenAIAgentsInstrumentation({ tracerProvider: provider });
  instrumentation.manuallyInstrument(agents);
  const rec = new Recorder('OpenAI Agents SDK + OpenInference', '@openai/agents', version);
  // Sensitive data on: otherwise the SDK redacts every tool error to one
  // fixed message, and no error class can be told.
  const runner = new agents.Runner({ traceIncludeSensitiveData: true });
  for (const s of scenarios) {
    rec.begin(s);
    const tools = Object.entries(schemas).map(([name, parameters]) =>
      agents.tool({
        name,
        description: `fake ${name}`,
        parameters,
        execute: (args) => rec.execute(name, args),
        // Tell the model what failed. With the SDK's default error function
        // the span's error is redacted to one fixed message, whatever failed.
        errorFunction: (_ctx, err) => `${err}`,
      }),
    );
    const agent = new agents.Agent({ name: s.name, instructions: 'Use the tools.', model: new ScriptedModel(s, rec), tools });
    const result = await runner.run(agent, s.prompt, { maxTurns: 6 });
    // The SDK reports no finish reason: the run ends when the model replies
    // without tool calls.
    rec.answer(result.finalOutput, null);
  }
  await agents.getGlobalTraceProvider().forceFlush();
  instrumentation.uninstrument?.();
  await provider.forceFlush();
  return { spans: exporter.getFinishedSpans(), truth: rec.summary() };
}
