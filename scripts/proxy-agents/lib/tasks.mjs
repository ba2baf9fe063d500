// The three tasks an agent is asked to do, one per MCP reference server.
// Each is a list of steps (one tool call each) and a way to read the
// answer out of the last step's result. The arguments depend only on the
// run's index, so every night asks the same things in the same order.
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

// serverEntry is the script of a reference server's package, started with
// this same node so no PATH lookup (npx) stands between runs.
function serverEntry(pkg, bin) {
  const manifest = require(`${pkg}/package.json`);
  const rel = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin[bin];
  return path.join(path.dirname(require.resolve(`${pkg}/package.json`)), rel);
}

// filesystem: make a directory, write a report into it (real writes under
// the run's temporary root), read it back. The first write names the file
// through "./", which the server accepts; a careful agent told that the
// path is invalid normalizes it.
function filesystem(i, root) {
  const dir = path.join(root, `run-${i}`);
  const content = `report of run ${i}\n`;
  return {
    server: 'filesystem',
    command: [process.execPath, serverEntry('@modelcontextprotocol/server-filesystem', 'mcp-server-filesystem'), root],
    env: {},
    steps: [
      { tool: 'create_directory', args: { path: dir } },
      { tool: 'write_file', args: { path: `${dir}/./report.txt`, content } },
      { tool: 'read_text_file', args: { path: path.join(dir, 'report.txt') } },
    ],
    answer: (text) => (text.includes(content.trim()) ? content.trim() : ''),
  };
}

// memory: create an entity, add an observation (a write that is not
// idempotent), read the entity back. Reading the entity is also how a
// careful agent learns whether a write of unknown outcome took effect.
function memory(i, root) {
  const name = `run-${i}`;
  const note = `report filed by run ${i}`;
  const open = { tool: 'open_nodes', args: { names: [name] } };
  return {
    server: 'memory',
    command: [process.execPath, serverEntry('@modelcontextprotocol/server-memory', 'mcp-server-memory')],
    env: { MEMORY_FILE_PATH: path.join(root, `memory-${i}.jsonl`) },
    steps: [
      { tool: 'create_entities', args: { entities: [{ name, entityType: 'run', observations: ['started'] }] } },
      { tool: 'add_observations', args: { observations: [{ entityName: name, contents: [note] }] }, status: open, effect: note },
      open,
    ],
    answer: (text) => (text.includes(note) ? note : ''),
  };
}

// everything: echo a greeting, then ask for a sum; the answer is the sum.
function everything(i) {
  return {
    server: 'everything',
    command: [process.execPath, serverEntry('@modelcontextprotocol/server-everything', 'mcp-server-everything'), 'stdio'],
    env: {},
    steps: [
      { tool: 'echo', args: { message: `hello from run ${i}` } },
      { tool: 'get-sum', args: { a: i, b: 7 } },
    ],
    answer: (text) => {
      const m = /(-?\d+(?:\.\d+)?)\s*\.?\s*$/.exec(text.trim());
      return m && Number(m[1]) === i + 7 ? m[1] : '';
    },
  };
}

const makers = { filesystem, memory, everything };

// task builds the task of one run on the named server.
export function task(server, i, root) {
  const make = makers[server];
  if (!make) throw new Error(`unknown server ${JSON.stringify(server)}`);
  return make(i, root);
}
