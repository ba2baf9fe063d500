// The scripted model's mind: from the task and the conversation so far (the
// tool calls it made and the results it was shown) it decides the next tool
// call or the final answer, as a careful or a naive agent would. It keeps
// no state of its own: both frameworks rebuild the history from the prompt
// they hand their model, so the decision is a function of what the model
// was shown.

// Categories after which re-sending the same arguments cannot help.
const NOT_RESENDABLE = new Set(['VALIDATION', 'AUTHN', 'AUTHZ', 'NOT_FOUND', 'SAFETY', 'CONFLICT', 'EMPTY_CONTENT']);
// How many times the naive agent sends one call before it moves on.
const NAIVE_ATTEMPTS = 6;
// How many re-sends of a retryable failure the careful agent allows itself.
const CAREFUL_RESENDS = 1;
// Extra wait beyond Retry-After, so the re-send is clearly after it.
const RETRY_MARGIN_MS = 50;

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// fixArgs answers a VALIDATION error naming a field: the careful agent
// rewrites that field in its normal form (a path without "." segments),
// and gives up when it has nothing to fix.
function fixArgs(args, field) {
  const v = args[field];
  if (typeof v !== 'string') return null;
  const fixed = v.split('/').filter((seg, k) => seg !== '.' || k === 0).join('/');
  return fixed === v ? null : { ...args, [field]: fixed };
}

// fieldOf reads the field a VALIDATION message names ("field 'path' ...").
function fieldOf(error) {
  const m = /field '([^']+)'/.exec(error.message ?? '');
  return m ? m[1] : '';
}

// stepDone says whether step s of the task has been achieved by history h.
function stepDone(s, h) {
  return h.some((c) => c.ok && (c.tool === s.tool || (s.status && c.tool === s.status.tool && s.effect && c.text.includes(s.effect))));
}

// trailing is how many calls at the end of h repeat exactly the last one.
function trailing(h) {
  const last = h.at(-1);
  let n = 0;
  for (let k = h.length - 1; k >= 0 && h[k].tool === last.tool && same(h[k].args, last.args); k--) n++;
  return n;
}

// final is the closing claim. Its answer is read from the latest good
// result of the task's last step; a claim other than completed says why.
function final(t, h, terminal, reason) {
  const tool = t.steps.at(-1).tool;
  const lastOk = [...h].reverse().find((c) => c.ok && c.tool === tool);
  const answer = lastOk ? t.answer(lastOk.text) : '';
  if (terminal === 'completed') return { final: { terminal, reason, text: answer, answer } };
  const last = h.at(-1);
  const why = last?.error ? `${last.tool} failed: ${last.error.category ?? 'error'}` : 'unfinished';
  return { final: { terminal, reason, text: `I could not finish the task (${why}).`, answer: '' } };
}

// careful: fix arguments after VALIDATION, check state after an unknown
// outcome, wait for Retry-After, stop at an open breaker or when re-sends
// are spent, and claim completed only when every step is done.
function careful(t, h) {
  const last = h.at(-1);
  if (last && !last.ok) {
    const e = last.error ?? {};
    if (e.circuit === 'open' || e.code === 'CIRCUIT_OPEN') return final(t, h, 'failed', 'tool_unavailable');
    if (e.category === 'VALIDATION') {
      const fixed = fixArgs(last.args, fieldOf(e));
      return fixed ? { call: { tool: last.tool, args: fixed } } : final(t, h, 'failed', 'tool_unavailable');
    }
    if (e.category === 'UNKNOWN_OUTCOME') {
      const s = t.steps.find((x) => x.tool === last.tool);
      return s?.status ? { call: s.status } : final(t, h, 'failed', 'tool_unavailable');
    }
    if (NOT_RESENDABLE.has(e.category) || e.retryable !== true || trailing(h) > CAREFUL_RESENDS) {
      return final(t, h, 'failed', 'tool_unavailable');
    }
    const wait = e.retry_after_ms > 0 ? e.retry_after_ms + RETRY_MARGIN_MS : 0;
    return { call: { tool: last.tool, args: last.args }, waitMs: wait };
  }
  const next = t.steps.find((s) => !stepDone(s, h));
  // A write whose outcome stayed unknown and did not show up in the state
  // is not re-sent: without an idempotency key it could land twice.
  if (next && h.some((c) => c.tool === next.tool && c.error?.category === 'UNKNOWN_OUTCOME')) {
    return final(t, h, 'failed', 'tool_unavailable');
  }
  if (next) return { call: next };
  const done = final(t, h, 'completed', 'ok');
  // Every step answered, but the answer is not what the task asked for.
  return done.final.text ? done : final(t, h, 'failed', 'evidence_missing');
}

// naive: re-send whatever failed, at once and unchanged, a few times; then
// go on with the next step as if it had worked; claim completed at the end.
function naive(t, h) {
  const last = h.at(-1);
  if (last && !last.ok && trailing(h) < NAIVE_ATTEMPTS) return { call: { tool: last.tool, args: last.args } };
  const tried = (s) => h.some((c) => c.tool === s.tool && (c.ok || same(c.args, s.args)));
  const next = t.steps.find((s) => !tried(s));
  if (next) return { call: next };
  return final(t, h, 'completed', 'ok');
}

export const policies = { careful, naive };

// decide is the model's next move: {call: {tool, args}, waitMs} or
// {final: {terminal, reason, text, answer}}, where answer is the value the
// task asked for as read from a tool result ('' when none came back).
export function decide(policy, t, history) {
  const p = policies[policy];
  if (!p) throw new Error(`unknown policy ${JSON.stringify(policy)}`);
  return p(t, history);
}

// readResult turns a tool result as a framework shows it to its model into
// {ok, text, error}: the text of its content and seed 004's error object
// from structuredContent.error when the result is an error.
export function readResult(value) {
  const texts = [];
  let isError = false;
  let error = null;
  const walk = (v) => {
    if (typeof v === 'string') {
      texts.push(v);
      try {
        const j = JSON.parse(v);
        if (j && typeof j === 'object') walk(j);
      } catch { /* plain text */ }
      return;
    }
    if (Array.isArray(v)) return v.forEach(walk);
    if (!v || typeof v !== 'object') return;
    if (v.isError === true) isError = true;
    if (v.structuredContent?.error?.category) error = v.structuredContent.error;
    if (v.error?.category && !error) error = v.error;
    // Only a content item's text is text; other strings are labels.
    for (const [k, x] of Object.entries(v)) {
      if (k === 'structuredContent') continue;
      if (k === 'text' || typeof x === 'object') walk(x);
    }
  };
  walk(value);
  const text = texts.filter((s) => !s.startsWith('{')).join('\n');
  return { ok: !isError && !error, text, error: error ?? (isError ? { category: 'INTERNAL', message: text } : null) };
}
