// The scripted policies' decisions on hand-built histories (node --test).
import assert from 'node:assert/strict';
import test from 'node:test';
import { decide, readResult } from './brain.mjs';
import { task } from './tasks.mjs';

const fsTask = task('filesystem', 1, '/r');
const memTask = task('memory', 2, '/r');
const sumTask = task('everything', 3, '/r');
const ok = (s, text = 'done') => ({ tool: s.tool, args: s.args, ok: true, text, error: null });
const fail = (s, error) => ({ tool: s.tool, args: s.args, ok: false, text: '', error });
const validation = { category: 'VALIDATION', retryable: false, message: "field 'path' is invalid" };
const rateLimit = { category: 'RATE_LIMIT', retryable: true, retry_after_ms: 1000 };
const unknown = { category: 'UNKNOWN_OUTCOME', retryable: false, side_effect_state: 'unknown' };
const transient = { category: 'TRANSIENT', retryable: true, circuit: 'closed' };
const [mkdir, write, read] = fsTask.steps;
const [create, observe, open] = memTask.steps;
const [echo, sum] = sumTask.steps;

test('a fault-free run: each step once, then the answer read back', () => {
  for (const p of ['careful', 'naive']) {
    assert.deepEqual(decide(p, fsTask, []), { call: mkdir });
    assert.deepEqual(decide(p, fsTask, [ok(mkdir), ok(write)]), { call: read });
    assert.deepEqual(decide(p, fsTask, [ok(mkdir), ok(write), ok(read, 'report of run 1\n')]),
      { final: { terminal: 'completed', reason: 'ok', text: 'report of run 1', answer: 'report of run 1' } });
  }
});

test('VALIDATION: careful fixes the named field, naive re-sends it unchanged', () => {
  const h = [ok(mkdir), fail(write, validation)];
  assert.deepEqual(decide('careful', fsTask, h), { call: { tool: 'write_file', args: { ...write.args, path: '/r/run-1/report.txt' } } });
  assert.deepEqual(decide('naive', fsTask, h), { call: { tool: 'write_file', args: write.args } });
});

test('RATE_LIMIT: careful waits Retry-After and a margin, naive at once', () => {
  const h = [ok(mkdir), ok(write), fail(read, rateLimit)];
  assert.deepEqual(decide('careful', fsTask, h), { call: { tool: read.tool, args: read.args }, waitMs: 1050 });
  assert.deepEqual(decide('naive', fsTask, h), { call: { tool: read.tool, args: read.args } });
});

test('UNKNOWN_OUTCOME: careful reads the state and does not write again', () => {
  const h = [ok(create), fail(observe, unknown)];
  assert.deepEqual(decide('careful', memTask, h), { call: open });
  assert.deepEqual(decide('naive', memTask, h), { call: { tool: observe.tool, args: observe.args } });
  const landed = [...h, ok(open, '{"observations":["started","report filed by run 2"]}')];
  assert.deepEqual(decide('careful', memTask, landed), { final: { terminal: 'completed', reason: 'ok', text: 'report filed by run 2', answer: 'report filed by run 2' } });
  const lost = [...h, ok(open, '{"observations":["started"]}')];
  assert.equal(decide('careful', memTask, lost).final.terminal, 'failed');
});

test('a persistent fault: careful retries once and reports failure, naive claims completed with no answer', () => {
  let h = [ok(echo), fail(sum, transient)];
  assert.deepEqual(decide('careful', sumTask, h), { call: { tool: sum.tool, args: sum.args }, waitMs: 0 });
  h = [...h, fail(sum, transient)];
  assert.deepEqual(decide('careful', sumTask, h).final, { terminal: 'failed', reason: 'tool_unavailable', text: 'I could not finish the task (get-sum failed: TRANSIENT).', answer: '' });
  for (let k = 2; k < 6; k++) {
    assert.deepEqual(decide('naive', sumTask, h), { call: { tool: sum.tool, args: sum.args } });
    h = [...h, fail(sum, { ...transient, circuit: 'open' })];
  }
  assert.deepEqual(decide('naive', sumTask, h), { final: { terminal: 'completed', reason: 'ok', text: '', answer: '' } });
});

test('an open circuit stops the careful agent at once', () => {
  const h = [ok(echo), fail(sum, { ...transient, circuit: 'open', code: 'CIRCUIT_OPEN' })];
  assert.equal(decide('careful', sumTask, h).final.terminal, 'failed');
});

test('readResult reads both frameworks\' shapes', () => {
  const error = { category: 'RATE_LIMIT', retryable: true, retry_after_ms: 1000 };
  const aisdk = { content: [{ type: 'text', text: 'RATE_LIMIT (RATE_LIMITED): slow down' }], structuredContent: { error }, isError: true };
  assert.deepEqual(readResult(aisdk), { ok: false, text: 'RATE_LIMIT (RATE_LIMITED): slow down', error });
  const openai = [{ type: 'input_text', text: 'RATE_LIMIT (RATE_LIMITED): slow down' },
    { type: 'input_text', text: JSON.stringify({ isError: true, structuredContent: { error } }) }];
  assert.deepEqual(readResult(openai), { ok: false, text: 'RATE_LIMIT (RATE_LIMITED): slow down', error });
  assert.deepEqual(readResult({ content: [{ type: 'text', text: 'The sum of 3 and 7 is 10.' }] }), { ok: true, text: 'The sum of 3 and 7 is 10.', error: null });
  assert.equal(sumTask.answer('The sum of 3 and 7 is 10.'), '10');
  assert.deepEqual(readResult({ content: [{ type: 'text', text: 'Error: ENOENT' }], isError: true }).error, { category: 'INTERNAL', message: 'Error: ENOENT' });
});
