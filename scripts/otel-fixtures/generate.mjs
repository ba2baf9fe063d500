// generate.mjs writes otlp/testdata/frameworks/{name}.jsonl and
// {name}.truth.json for each framework, offline. Run: npm run generate.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFixture } from './otel.mjs';
import { runAISDK6, runAISDK7 } from './aisdk.mjs';
import { runLangGraph } from './langgraph.mjs';
import { runOpenAIAgents } from './openai-agents.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', '..', 'otlp', 'testdata', 'frameworks');

// installed reads the version npm actually installed.
function installed(pkg) {
  return JSON.parse(readFileSync(join(here, 'node_modules', pkg, 'package.json'), 'utf8')).version;
}

const generators = [
  ['aisdk6', () => runAISDK6(installed('ai6'))],
  ['aisdk7', () => runAISDK7(installed('ai'))],
  ['openai-agents', () => runOpenAIAgents(`${installed('@openai/agents')} (@arizeai/openinference-instrumentation-openai-agents ${installed('@arizeai/openinference-instrumentation-openai-agents')})`)],
  ['langgraph', () => runLangGraph(`${installed('@langchain/langgraph')} (@langchain/core ${installed('@langchain/core')}, @arizeai/openinference-instrumentation-langchain ${installed('@arizeai/openinference-instrumentation-langchain')})`)],
];

for (const [name, run] of generators) {
  const { spans, truth } = await run();
  const lines = writeFixture(join(out, `${name}.jsonl`), spans);
  writeFileSync(join(out, `${name}.truth.json`), JSON.stringify(truth, null, 2) + '\n');
  console.log(`${name}: ${spans.length} spans in ${lines} lines, ${truth.totals.runs} runs, ${truth.totals.tool_calls} tool calls`);
}
