// Runs the nights: for each framework and policy, a fault-free night and a
// faulted night of agent runs on the MCP reference servers, each run with
// its server command replaced by `faultlens proxy ... -- <server>` as a
// user's MCP configuration would have it. Writes DIR/<suite>.jsonl per
// night: the proxy's run and tool_call events, then the agent's own
// planning stage, evidence and terminal claim, run by run.
//
//   node run-nights.mjs --bin PATH --out DIR [--runs 8] [--jobs 3] [--seed 1]
//        [--frameworks aisdk,openai] [--policies careful,naive]
//   node run-nights.mjs --direct --out DIR ...   (no proxy: the agents alone)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { runAISDK } from './agent-aisdk.mjs';
import { runOpenAI } from './agent-openai.mjs';
import { task } from './lib/tasks.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const frameworks = { aisdk: runAISDK, openai: runOpenAI };

// The faulted night's scenarios, taken by run index in turn; the
// fault-free night runs the same tasks on the same servers without a plan.
export const scenarios = [
  { server: 'filesystem', plan: 'invalid-path.yaml' },
  { server: 'filesystem', plan: 'read-rate-limit.yaml' },
  { server: 'memory', plan: 'unknown-write.yaml' },
  { server: 'everything', plan: 'sum-breaker.yaml' },
];

const { values: o } = parseArgs({
  options: {
    bin: { type: 'string' },
    out: { type: 'string' },
    runs: { type: 'string', default: '8' },
    jobs: { type: 'string', default: '3' },
    seed: { type: 'string', default: '1' },
    frameworks: { type: 'string', default: 'aisdk,openai' },
    policies: { type: 'string', default: 'careful,naive' },
    direct: { type: 'boolean', default: false },
  },
});
if (!o.out || (!o.bin && !o.direct)) {
  console.error('usage: node run-nights.mjs (--bin FAULTLENS | --direct) --out DIR [--runs N] [--jobs N] [--seed N] [--frameworks aisdk,openai] [--policies careful,naive]');
  process.exit(2);
}
const runs = Number(o.runs);
const jobs = Number(o.jobs);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(jobs) || jobs < 1) {
  console.error('run-nights: --runs and --jobs must be positive integers');
  process.exit(2);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// proxyEvents waits until the proxy has written the run's `run` event (it
// does so when its session ends, after the client closed its stdin) and
// returns the file's lines.
async function proxyEvents(file) {
  for (let k = 0; k < 300; k++) {
    if (fs.existsSync(file)) {
      const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
      if (lines.some((l) => JSON.parse(l).type === 'run')) return lines;
    }
    await sleep(100);
  }
  throw new Error(`${file}: the proxy wrote no run event within 30 s`);
}

// The user's contract for every task: one answer, read from a tool result.
const taskContract = (server) => ({ kind: `mcp-${server}`, evidence_required: 1 });

// withTask adds the task to the proxy's run event. The proxy leaves `task`
// to the agent (it cannot know the request), and an agent writing JSON
// Lines cannot add a second run event (it would be a rejected duplicate),
// so the harness that gave the agent its task joins the two here.
function withTask(lines, task) {
  return lines.map((l) => {
    const e = JSON.parse(l);
    return e.type === 'run' ? JSON.stringify({ ...e, task }) : l;
  });
}

// oneRun runs one agent and returns its lines: the proxy's, then the
// agent's own (its plan, the evidence its answer rests on, its claim).
async function oneRun({ framework, policy, suite, night, i, root, work }) {
  const sc = scenarios[i % scenarios.length];
  const t = task(sc.server, i, root);
  const runId = `${suite}-${String(i).padStart(3, '0')}`;
  const events = path.join(work, `${runId}.proxy.jsonl`);
  const command = o.direct ? t.command : [
    o.bin, 'proxy', '--suite', suite, '--run-id', runId, '--seed', o.seed, '--out', events,
    ...(night === 'fault' ? ['--plan', path.join(here, 'plans', sc.plan)] : []),
    '--', ...t.command,
  ];
  // The scripted model's plan is the task's list of steps, made before
  // its first call.
  const planned = new Date().toISOString();
  const claim = await frameworks[framework]({ policy, task: t, command, env: t.env });
  const lines = o.direct ? [] : withTask(await proxyEvents(events), taskContract(sc.server));
  const own = [{ type: 'stage', run_id: runId, ts: planned, stage_id: 'plan', stage: 'planning', started_at: planned, ended_at: planned, outcome: 'ok', plan_valid: true }];
  // The claim is committed after the session: nothing of the run comes
  // later. Date.now() is truncated to the millisecond and the proxy writes
  // microseconds, so the next millisecond is the first one surely later.
  const ts = new Date(Date.now() + 1).toISOString();
  if (claim.answer) {
    own.push({ type: 'evidence', run_id: runId, ts, evidence_id: `${runId}/answer`, claim: 'answer', grade: 'primary', status: 'confirmed' });
  }
  own.push({
    type: 'terminal', run_id: runId, ts, terminal: claim.terminal, reason: claim.reason,
    visible_chars: claim.text.length, ...(claim.terminal === 'completed' ? {} : { disclosed_gaps: true }),
  });
  return [...lines, ...own.map((e) => JSON.stringify(e))];
}

async function night({ framework, policy, night }) {
  const suite = `${framework}-${policy}-${night}`;
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `proxy-agents-${suite}-`)));
  const work = path.join(o.out, 'runs');
  fs.mkdirSync(work, { recursive: true });
  const results = new Array(runs);
  let next = 0;
  const worker = async () => {
    while (next < runs) {
      const i = next++;
      results[i] = await oneRun({ framework, policy, suite, night, i, root, work });
    }
  };
  const done = await Promise.allSettled(Array.from({ length: Math.min(jobs, runs) }, worker));
  fs.rmSync(root, { recursive: true, force: true });
  const failed = done.find((d) => d.status === 'rejected');
  if (failed) throw new Error(`${suite}: ${failed.reason?.stack ?? failed.reason}`);
  const file = path.join(o.out, `${suite}.jsonl`);
  fs.writeFileSync(file, results.flat().join('\n') + '\n');
  const events = results.flat().map((l) => JSON.parse(l));
  const claims = events.filter((e) => e.type === 'terminal').map((e) => e.terminal);
  const calls = events.filter((e) => e.type === 'tool_call').length;
  console.log(`${suite}: ${runs} runs, ${calls} tool calls, claims ${JSON.stringify(count(claims))} -> ${file}`);
}

const count = (xs) => xs.reduce((m, x) => ({ ...m, [x]: (m[x] ?? 0) + 1 }), {});

fs.mkdirSync(o.out, { recursive: true });
for (const framework of o.frameworks.split(',')) {
  if (!frameworks[framework]) throw new Error(`unknown framework ${JSON.stringify(framework)}`);
  for (const policy of o.policies.split(',')) {
    for (const n of ['base', 'fault']) await night({ framework, policy, night: n });
  }
}
