// generate.mjs writes otlp/testdata/frameworks/{name}.jsonl and
// {name}.truth.json for each framework, offline. Run: npm run generate
// (or node generate.mjs NAME... for some of them).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFixture } from './otel.mjs';
import { runAISDK5, runAISDK6, runAISDK7 } from './aisdk.mjs';
import { runLangGraph } from './langgraph.mjs';
import { runOpenAIAgents } from './openai-agents.mjs';
import { runTraceloop } from './traceloop.mjs';
import { runContribOpenAI } from './contrib-openai.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', '..', 'otlp', 'testdata', 'frameworks');

// installed reads the version npm actually installed.
function installed(pkg) {
  return JSON.parse(readFileSync(join(here, 'node_modules', pkg, 'package.json'), 'utf8')).version;
}

const generators = [
  ['aisdk5', () => runAISDK5(installed('ai5'))],
  ['aisdk6', () => runAISDK6(installed('ai6'))],
  ['aisdk7', () => runAISDK7(installed('ai'))],
  ['openai-agents', () => runOpenAIAgents(`${installed('@openai/agents')} (@arizeai/openinference-instrumentation-openai-agents ${installed('@arizeai/openinference-instrumentation-openai-agents')})`)],
  ['contrib-openai', () => runContribOpenAI(`${installed('@opentelemetry/instrumentation-openai')} (openai ${installed('openai6')})`)],
  ['traceloop', () => runTraceloop(`${installed('@traceloop/node-server-sdk')} (@traceloop/instrumentation-openai ${installed('@traceloop/instrumentation-openai')}, openai ${installed('openai')})`)],
  ['langgraph', () => runLangGraph(`${installed('@langchain/langgraph')} (@langchain/core ${installed('@langchain/core')}, @arizeai/openinference-instrumentation-langchain ${installed('@arizeai/openinference-instrumentation-langchain')})`)],
];

// Arguments name the fixtures to write (all by default). Traceloop
// registers a global tracer provider and instruments modules on load, so
// it runs in a process of its own, after the others.
const alone = ['traceloop'];
const only = process.argv.slice(2);
for (const [name, run] of generators) {
  if (only.length > 0 ? !only.includes(name) : alone.includes(name)) continue;
  const { spans, truth } = await run();
  const lines = writeFixture(join(out, `${name}.jsonl`), spans);
  writeFileSync(join(out, `${name}.truth.json`), JSON.stringify(truth, null, 2) + '\n');
  console.log(`${name}: ${spans.length} spans in ${lines} lines, ${truth.totals.runs} runs, ${truth.totals.tool_calls} tool calls`);
}

if (only.length === 0) {
  for (const name of alone) {
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), name], { stdio: 'inherit' });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
}
