// LangGraph.js's prebuilt ReAct agent with a fake tool-calling chat model,
// traced by OpenInference's LangChain instrumentation.
import * as CallbackManagerModule from '@langchain/core/callbacks/manager';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { LangChainInstrumentation } from '@arizeai/openinference-instrumentation-langchain';
import { z } from 'zod';
import { scenarios, Recorder, modelLatency } from './scenarios.mjs';
import { setup, sleep } from './otel.mjs';

const schemas = {
  search: z.object({ query: z.string() }),
  weather: z.object({ city: z.string() }),
  book_flight: z.object({ to: z.string(), date: z.string() }),
  lookup_order: z.object({ id: z.number() }),
};

// ScriptedChatModel replies with a scenario's turns in order: AIMessages
// with tool_calls, then the answer. LangChain's fakes cannot call tools.
class ScriptedChatModel extends BaseChatModel {
  constructor(scenario, rec) {
    super({});
    this.scenario = scenario;
    this.rec = rec;
    this.turn = 0;
    this.callNo = 0;
  }
  _llmType() {
    return 'scripted';
  }
  bindTools() {
    return this;
  }
  async _generate() {
    this.rec.modelCall();
    await sleep(modelLatency);
    const t = this.scenario.turns[this.turn++];
    const usage_metadata = { input_tokens: 100 * this.turn, output_tokens: 20, total_tokens: 100 * this.turn + 20 };
    const message = t.answer
      ? new AIMessage({ content: t.answer, usage_metadata, response_metadata: { finish_reason: 'stop', model_name: 'scripted-model' } })
      : new AIMessage({
          content: '',
          usage_metadata,
          response_metadata: { finish_reason: 'tool_calls', model_name: 'scripted-model' },
          tool_calls: t.calls.map(([name, args]) => ({ id: `call_${++this.callNo}`, name, args, type: 'tool_call' })),
        });
    return { generations: [{ text: typeof message.content === 'string' ? message.content : '', message }] };
  }
}

/** runLangGraph runs every scenario and returns spans and truth. */
export async function runLangGraph(versions) {
  const { provider, exporter } = setup('1c', 'langgraph-agent');
  const instrumentation = new LangChainInstrumentation({ tracerProvider: provider });
  instrumentation.manuallyInstrument(CallbackManagerModule);
  const rec = new Recorder('LangGraph.js + OpenInference', '@langchain/langgraph', versions);
  for (const s of scenarios) {
    rec.begin(s);
    const tools = Object.entries(schemas).map(([name, schema]) =>
      tool((args) => rec.execute(name, args), { name, description: `fake ${name}`, schema }),
    );
    const agent = createReactAgent({ llm: new ScriptedChatModel(s, rec), tools, name: s.name });
    const result = await agent.invoke({ messages: [{ role: 'user', content: s.prompt }] }, { runName: s.name });
    const last = result.messages.at(-1);
    rec.answer(last.content, last.response_metadata?.finish_reason ?? null);
  }
  instrumentation.disable();
  await provider.forceFlush();
  return { spans: exporter.getFinishedSpans(), truth: rec.summary() };
}
