// The scenarios every framework runs, the fake tools (which fail as the
// seeds describe) and the truth recorder: what the generator actually did,
// written next to each fixture for the Go tests to compare against.
import { sleep } from './otel.mjs';

/** Errors the fake tools throw, one per contract category they exercise. */
export class ToolTimeoutError extends Error {
  constructor(m) { super(m); this.name = 'ToolTimeoutError'; }
}
export class RateLimitError extends Error {
  constructor(m) { super(m); this.name = 'RateLimitError'; }
}
export class ValidationError extends Error {
  constructor(m) { super(m); this.name = 'ValidationError'; }
}
export class OrderStoreError extends Error {
  constructor(m) { super(m); this.name = 'OrderStoreError'; }
}

// faults says, per tool, what each execution with the given arguments does.
const faults = {
  timeout: { ms: 5000, category: 'TIMEOUT', make: (tool) => new ToolTimeoutError(`${tool} timed out after 5000 ms`) },
  rate_limit: { ms: 30, category: 'RATE_LIMIT', make: () => new RateLimitError('429 Too Many Requests: rate limit exceeded, retry after 2 s') },
  validation: { ms: 5, category: 'VALIDATION', make: () => new ValidationError('invalid argument: date 2026-13-40 is not a calendar date') },
  internal: { ms: 80, category: 'INTERNAL', make: () => new OrderStoreError('order store returned a corrupt row') },
};

/**
 * scenarios: each is one run. turns are the model's replies in order: tool
 * calls (several = parallel calls in one step) or the final answer. plan
 * lists, per tool and arguments, the outcome of each execution.
 */
export const scenarios = [
  {
    name: 'timeout-retry',
    prompt: 'Find the faultlens release notes.',
    turns: [
      { calls: [['search', { query: 'faultlens release notes' }]] },
      { calls: [['search', { query: 'faultlens release notes' }]] },
      { answer: 'The release notes are at faultlens.dev/releases.' },
    ],
    plan: { 'search {"query":"faultlens release notes"}': ['timeout', 'ok'] },
  },
  {
    name: 'validation-resend',
    prompt: 'Book me a flight to Oslo on the 40th of the 13th month.',
    turns: [
      { calls: [['book_flight', { to: 'OSL', date: '2026-13-40' }]] },
      { calls: [['book_flight', { to: 'OSL', date: '2026-13-40' }]] },
      { answer: 'I could not book the flight: the date is not valid.' },
    ],
    plan: { 'book_flight {"to":"OSL","date":"2026-13-40"}': ['validation', 'validation'] },
  },
  {
    name: 'fix-args',
    prompt: 'Book me a flight to Oslo next Friday.',
    turns: [
      { calls: [['book_flight', { to: 'OSL', date: '2026-13-40' }]] },
      { calls: [['book_flight', { to: 'OSL', date: '2026-12-04' }]] },
      { answer: 'Booked: OSL on 2026-12-04.' },
    ],
    plan: { 'book_flight {"to":"OSL","date":"2026-13-40"}': ['validation'] },
  },
  {
    name: 'rate-limit-parallel',
    prompt: 'What is the weather in Paris and in Oslo?',
    turns: [
      { calls: [['weather', { city: 'Paris' }], ['weather', { city: 'Oslo' }]] },
      { calls: [['weather', { city: 'Paris' }]] },
      { answer: 'Paris: 12 °C and cloudy. Oslo: -3 °C and snowing.' },
    ],
    plan: { 'weather {"city":"Paris"}': ['rate_limit', 'ok'] },
  },
  {
    name: 'answer-despite-failure',
    prompt: 'When does order 42 ship?',
    turns: [
      { calls: [['lookup_order', { id: 42 }]] },
      { answer: 'Order 42 ships tomorrow.' },
    ],
    plan: { 'lookup_order {"id":42}': ['internal'] },
  },
];

const toolResults = {
  search: () => ({ url: 'https://faultlens.dev/releases' }),
  weather: ({ city }) => (city === 'Paris' ? { celsius: 12, sky: 'cloudy' } : { celsius: -3, sky: 'snow' }),
  book_flight: ({ to, date }) => ({ booking: `${to}-${date}` }),
  lookup_order: ({ id }) => ({ id, ships: 'tomorrow' }),
};

/** Recorder keeps the truth of one fixture as the generator runs it. */
export class Recorder {
  constructor(framework, packageName, version) {
    this.truth = { framework, package: packageName, version, runs: [] };
    this.run = null;
  }

  /** begin starts the record of a scenario's run. */
  begin(scenario) {
    this.run = { scenario: scenario.name, model_calls: 0, tool_calls: [], answer: null, finish_reason: null };
    this.truth.runs.push(this.run);
    this.plan = Object.fromEntries(Object.entries(scenario.plan).map(([k, v]) => [k, [...v]]));
  }

  /** planned counts a planning stage the agent ran (only agents that plan call it). */
  planned() {
    this.run.plans = (this.run.plans ?? 0) + 1;
  }

  /** modelCall counts one call of the fake model. */
  modelCall() {
    this.run.model_calls++;
  }

  /** execute runs a fake tool by the scenario's plan and records it. */
  async execute(tool, args) {
    const key = `${tool} ${JSON.stringify(args)}`;
    const outcome = this.plan[key]?.shift() ?? 'ok';
    const call = { tool, args, status: outcome === 'ok' ? 'ok' : 'error' };
    this.run.tool_calls.push(call);
    if (outcome === 'ok') {
      await sleep(120);
      return toolResults[tool](args);
    }
    const f = faults[outcome];
    call.category = f.category;
    await sleep(f.ms);
    const err = f.make(tool);
    // A stack names this checkout's paths: keep only the first line, so
    // the fixtures do not change with the machine that generated them.
    err.stack = `${err.name}: ${err.message}`;
    throw err;
  }

  /** answer records the run's final answer. */
  answer(text, finishReason) {
    this.run.answer = text;
    this.run.finish_reason = finishReason;
  }

  /**
   * summary adds the figures the Go tests assert. A re-send is a call of the
   * same tool with the same arguments as an earlier failed call of the run
   * that has not been re-sent yet; its outcome is the re-send's status.
   */
  summary() {
    const t = this.truth;
    const perTool = {};
    const failures = {};
    let resends = 0;
    for (const run of t.runs) {
      run.resends = [];
      const open = new Map();
      for (const c of run.tool_calls) {
        perTool[c.tool] = (perTool[c.tool] ?? 0) + 1;
        if (c.category) failures[c.category] = (failures[c.category] ?? 0) + 1;
        const key = `${c.tool} ${JSON.stringify(c.args)}`;
        const prev = open.get(key);
        if (prev) {
          run.resends.push({ tool: c.tool, after: prev.category, status: c.status });
          resends++;
        }
        if (c.status === 'error') open.set(key, c);
        else open.delete(key);
      }
    }
    t.totals = {
      runs: t.runs.length,
      model_calls: t.runs.reduce((n, r) => n + r.model_calls, 0),
      tool_calls: t.runs.reduce((n, r) => n + r.tool_calls.length, 0),
      tool_calls_per_tool: sorted(perTool),
      failures_per_category: sorted(failures),
      resends,
      answers: t.runs.filter((r) => r.answer !== null).length,
    };
    return t;
  }
}

function sorted(o) {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
}

/** modelLatency is what each fake model call takes on the fake clock. */
export const modelLatency = 400;
