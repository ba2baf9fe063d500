// One agent run with the OpenAI Agents SDK (@openai/agents-core): an Agent
// with an MCPServerStdio and the SDK's Runner, whose model is a scripted
// Model implementation deciding each turn with lib/brain.mjs from the input
// items the Runner hands it. No OpenAI client is ever built.
import { Agent, MCPServerStdio, Runner, Usage, setTracingDisabled } from '@openai/agents-core';
import { decide, readResult } from './lib/brain.mjs';

setTracingDisabled(true);

// The SDK names a function tool after its MCP tool with every character an
// OpenAI function name cannot hold replaced ("get-sum" is "get_sum"); the
// model calls the SDK's name and the SDK calls the server's.
const sdkName = (tool) => tool.replace(/[^A-Za-z0-9_]/g, '_');

// history rebuilds the tool calls and results from the Runner's input,
// under the MCP tool names the task uses.
function history(input, t) {
  const names = new Map(t.steps.flatMap((s) => [s, s.status].filter(Boolean)).map((s) => [sdkName(s.tool), s.tool]));
  if (!Array.isArray(input)) return [];
  const calls = new Map();
  const h = [];
  for (const item of input) {
    if (item.type === 'function_call') {
      calls.set(item.callId, { tool: names.get(item.name) ?? item.name, args: JSON.parse(item.arguments || '{}') });
    } else if (item.type === 'function_call_result') {
      h.push({ ...calls.get(item.callId), ...readResult(item.output) });
    }
  }
  return h;
}

// ScriptedModel is the SDK's Model interface played by the brain.
class ScriptedModel {
  constructor(policy, t) {
    this.policy = policy;
    this.task = t;
    this.claim = null;
    this.n = 0;
  }

  async getResponse(request) {
    const next = decide(this.policy, this.task, history(request.input, this.task));
    if (next.final) {
      this.claim = next.final;
      return {
        usage: new Usage(),
        output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: next.final.text }] }],
      };
    }
    if (next.waitMs) await new Promise((r) => setTimeout(r, next.waitMs));
    this.n++;
    return {
      usage: new Usage(),
      output: [{ type: 'function_call', callId: `call-${this.n}`, name: sdkName(next.call.tool), arguments: JSON.stringify(next.call.args), status: 'completed' }],
    };
  }

  async *getStreamedResponse() {
    throw new Error('the scripted model does not stream');
  }
}

// ErrorObjectServer shows the model a failed call's error object: the SDK
// hands its model only the text content of a result, while what a careful
// agent acts on (Retry-After, the circuit, the side effect state) is in
// structuredContent.error.
class ErrorObjectServer extends MCPServerStdio {
  async callToolResult(...a) {
    const r = await super.callToolResult(...a);
    if (!r.isError) return r;
    const note = { type: 'text', text: JSON.stringify({ isError: true, structuredContent: r.structuredContent ?? null }) };
    return { ...r, content: [...(r.content ?? []), note] };
  }
}

// runOpenAI runs task t under policy through the MCP server command and
// returns the agent's final claim {terminal, reason, text}.
export async function runOpenAI({ policy, task: t, command, env }) {
  const server = new ErrorObjectServer({
    name: t.server,
    command: command[0],
    args: command.slice(1),
    env: { ...process.env, ...env },
    cacheToolsList: true,
    // Starting a server on a busy CI machine can take longer than the
    // SDK's default of 5 s.
    clientSessionTimeoutSeconds: 60,
  });
  const model = new ScriptedModel(policy, t);
  await server.connect();
  try {
    const agent = new Agent({ name: `openai-agent-${policy}`, instructions: 'Do the task.', model, mcpServers: [server] });
    const runner = new Runner({ tracingDisabled: true });
    await runner.run(agent, 'Do the task.', { maxTurns: 30 });
  } finally {
    await server.close();
  }
  return model.claim ?? { terminal: 'failed', reason: 'budget_exhausted', text: '', answer: '' };
}
