// replicate.mjs writes N copies of a fixture with distinct trace ids, for
// measuring OTLP ingest on more than a handful of traces:
//   node replicate.mjs ../../otlp/testdata/frameworks/langgraph.jsonl 40 > /tmp/big-otlp.jsonl
import { readFileSync } from 'node:fs';

const [path, copies = '40'] = process.argv.slice(2);
const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
const out = [];
for (let k = 0; k < Number(copies); k++) {
  // Trace ids are 32 hex digits: replace the first two of each with the copy's number.
  const tag = (k + 16).toString(16).padStart(2, '0');
  for (const line of lines) {
    out.push(line.replace(/"traceId":"[0-9a-f]{2}/g, `"traceId":"${tag}`));
  }
}
process.stdout.write(out.join('\n') + '\n');
