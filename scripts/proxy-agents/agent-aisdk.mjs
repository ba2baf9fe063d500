// One agent run with the Vercel AI SDK: its MCP client (@ai-sdk/mcp over
// stdio) and generateText's tool loop, driven by the SDK's own mock
// language model (ai/test) whose every step is decided by lib/brain.mjs
// from the prompt the SDK hands it.
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { createMCPClient } from '@ai-sdk/mcp';
import { StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';
import { decide, readResult } from './lib/brain.mjs';

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

// history rebuilds the tool calls and results from the SDK's prompt.
function history(prompt) {
  const calls = new Map();
  const h = [];
  for (const m of prompt) {
    if (!Array.isArray(m.content)) continue;
    for (const p of m.content) {
      if (p.type === 'tool-call') {
        calls.set(p.toolCallId, { tool: p.toolName, args: typeof p.input === 'string' ? JSON.parse(p.input) : p.input });
      } else if (p.type === 'tool-result') {
        const c = calls.get(p.toolCallId);
        const failed = p.output?.type === 'error-text' || p.output?.type === 'error-json';
        const r = readResult(p.output?.value);
        h.push({ ...c, ...r, ok: r.ok && !failed, error: r.error ?? (failed ? { category: 'INTERNAL', message: r.text } : null) });
      }
    }
  }
  return h;
}

// runAISDK runs task t under policy through the MCP server command
// (faultlens proxy ... -- server, or the server itself) and returns the
// agent's final claim {terminal, reason, text}.
export async function runAISDK({ policy, task: t, command, env }) {
  let claim = null;
  let n = 0;
  const model = new MockLanguageModelV4({
    doGenerate: async (options) => {
      const next = decide(policy, t, history(options.prompt));
      if (next.final) {
        claim = next.final;
        return { content: [{ type: 'text', text: next.final.text }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
      }
      if (next.waitMs) await new Promise((r) => setTimeout(r, next.waitMs));
      n++;
      return {
        content: [{ type: 'tool-call', toolCallId: `call-${n}`, toolName: next.call.tool, input: JSON.stringify(next.call.args) }],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      };
    },
  });
  const client = await createMCPClient({
    transport: new StdioMCPTransport({ command: command[0], args: command.slice(1), env: { ...process.env, ...env }, stderr: 'ignore' }),
    clientInfo: { name: 'aisdk-agent', version: '1.0.0' },
  });
  try {
    const tools = await client.tools();
    // The stock adapter shows the model only the text of a result; the
    // error object an agent needs to act on (Retry-After, circuit, side
    // effect) is in structuredContent, so the model is shown the whole
    // result as JSON.
    for (const name of Object.keys(tools)) {
      tools[name] = { ...tools[name], toModelOutput: ({ output }) => ({ type: 'json', value: output ?? null }) };
    }
    await generateText({ model, tools, prompt: 'Do the task.', stopWhen: stepCountIs(30) });
  } finally {
    await client.close();
  }
  if (!claim) claim = { terminal: 'failed', reason: 'budget_exhausted', text: '', answer: '' };
  return claim;
}
