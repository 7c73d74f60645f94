// `npm run bench:soak`: memory of a real `kbctx serve mcp` under minutes of mixed traffic — REST search (mostly
// distinct queries) and get, MCP tools/call (raw JSON-RPC and the official client), a Lua script tool, and malformed
// requests. Prints the server's RSS after warm-up, during and at the end, and the growth after warm-up. Numbers only,
// never assertions. Env: SOAK_SECONDS (default 300), SOAK_WARMUP_SECONDS (default 60), SOAK_CLIENTS (default 6),
// SOAK_DOCS (default 2000).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { KBCTX_BIN, runKbctx, Workspace } from '../test/helpers/workspace.ts';

const SECONDS = Number(process.env['SOAK_SECONDS'] ?? 300);
const WARMUP = Number(process.env['SOAK_WARMUP_SECONDS'] ?? 60);
const CLIENTS = Number(process.env['SOAK_CLIENTS'] ?? 6);
const DOCS = Number(process.env['SOAK_DOCS'] ?? 2000);
const WORDS =
  'fox tea ledger harbour quartz meadow signal lantern copper orbit willow ember river basalt cedar falcon'.split(' ');

const ws = new Workspace('kbctx-bench-soak-');
for (let d = 0; d < DOCS; d++) {
  const text = Array.from({ length: 120 }, (_, w) => WORDS[(d * 13 + w * 7 + (w % 5)) % WORDS.length]).join(' ');
  ws.write(`docs/doc-${d}.md`, `# Doc ${d} ${WORDS[d % WORDS.length]}\n\n${text}.\n`);
}
ws.write(
  'tools/shout.lua',
  'tool = { description = "Shouts", parameters = { { name = "text", type = "string", required = true } } }\n' +
    'function tool.execute(p) return { text = string.upper(p.text) } end\n',
);
ws.config(
  '[connectors.filesystem.docs]\nroot = "docs"\n[tools.script.shout]\n' +
    'path = "tools/shout.lua"\n[server]\nbind = "127.0.0.1:0"\n',
);
const sync = await runKbctx(['sync', 'all'], { cwd: ws.dir });
if (sync.code !== 0) throw new Error(sync.stderr);

const server = spawn(process.execPath, [KBCTX_BIN, 'serve', 'mcp'], {
  cwd: ws.dir,
  env: { ...process.env, KBCTX_CONFIG: '' },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let serverErr = '';
server.stderr.setEncoding('utf8').on('data', (d: string) => (serverErr += d));
const base = await new Promise<string>((resolve) => {
  let out = '';
  server.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    const m = /Listening on (\S+)/.exec(out);
    if (m) resolve(m[1]!);
  });
});
/** The server's resident set in MB (the kbctx process itself: bin/kbctx.js may re-exec, so find the leaf). */
const rssMb = (): number => {
  const leaf = (pid: number): number => {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return children ? leaf(Number(children.split(' ')[0])) : pid;
  };
  const status = readFileSync(`/proc/${leaf(server.pid!)}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
};

const statuses = new Map<string, number>();
const count = (key: string | number): void => void statuses.set(String(key), (statuses.get(String(key)) ?? 0) + 1);
let stop = false;
let seq = 0;
const ids: string[] = [];
const JSON_HEADERS = { 'content-type': 'application/json' };
const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};

async function send(path: string, init: RequestInit): Promise<Response | null> {
  try {
    const res = await fetch(`${base}${path}`, init);
    count(res.status);
    return res;
  } catch (error) {
    count(`error:${(error as Error).message}`);
    return null;
  }
}

const malformed: (() => Promise<unknown>)[] = [
  () => send('/tools/search', { method: 'POST', headers: JSON_HEADERS, body: '{"query":' }),
  () =>
    send('/tools/search', {
      method: 'POST',
      headers: JSON_HEADERS,
      body: `{"query":"x","extra":${'['.repeat(3000)}${']'.repeat(3000)}}`,
    }),
  () => send('/tools/search', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' }),
  () =>
    send('/tools/search', {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify({ query: 'fox', source: 's'.repeat(20_000) }),
    }),
  () => send('/no/such/route', { method: 'GET' }),
  () => send('/mcp', { method: 'POST', headers: MCP_HEADERS, body: '{"jsonrpc":"2.0","id":1,"method":"no/such"}' }),
  () => send('/mcp', { method: 'POST', headers: MCP_HEADERS, body: '[{"jsonrpc":"1.0"}]' }),
  () => send('/tools/shout', { method: 'POST', headers: JSON_HEADERS, body: '{"text":42}' }),
];

async function client(n: number): Promise<void> {
  while (!stop) {
    const i = seq++;
    const word = `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} q${i}`; // mostly distinct queries
    switch (i % 6) {
      case 0: {
        const res = await send('/tools/search', {
          method: 'POST',
          headers: JSON_HEADERS,
          body: JSON.stringify({ query: word, limit: 5 }),
        });
        const body = (await res?.json().catch(() => null)) as { results?: { id: string }[] } | null;
        for (const r of body?.results ?? []) if (ids.length < 500) ids.push(r.id);
        break;
      }
      case 1:
        await (
          await send('/tools/get', {
            method: 'POST',
            headers: JSON_HEADERS,
            body: JSON.stringify({ id: ids[i % Math.max(1, ids.length)] ?? 'none' }),
          })
        )?.arrayBuffer();
        break;
      case 2:
        await (
          await send('/mcp', {
            method: 'POST',
            headers: MCP_HEADERS,
            body: JSON.stringify({
              jsonrpc: '2.0',
              id: i,
              method: 'tools/call',
              params: { name: 'search', arguments: { query: word } },
            }),
          })
        )?.arrayBuffer();
        break;
      case 3:
        await (
          await send('/tools/shout', {
            method: 'POST',
            headers: JSON_HEADERS,
            body: JSON.stringify({ text: `hello ${n} ${i}` }),
          })
        )?.arrayBuffer();
        break;
      case 4:
        await ((await malformed[i % malformed.length]!()) as Response | null)?.arrayBuffer();
        break;
      default: {
        if (i % 60 !== 5) break;
        const mcp = new Client({ name: `soak-${n}`, version: '1.0.0' });
        try {
          await mcp.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
          await mcp.callTool({ name: 'shout', arguments: { text: 'via sdk' } });
          count('sdk-ok');
        } catch (error) {
          count(`sdk-error:${(error as Error).message.slice(0, 60)}`);
        } finally {
          await mcp.close();
        }
      }
    }
  }
}

const sleep = (s: number): Promise<void> => new Promise((r) => setTimeout(r, s * 1000));
const started = rssMb();
const load = Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));
await sleep(WARMUP);
const afterWarmup = rssMb();
const requestsAtWarmup = seq;
console.log(
  `RSS at start ${started.toFixed(1)} MB; after ${WARMUP} s warm-up ${afterWarmup.toFixed(1)} MB ` +
    `(${requestsAtWarmup} requests)`,
);
const samples: number[] = [];
for (let t = 0; t < SECONDS; t += 30) {
  await sleep(Math.min(30, SECONDS - t));
  samples.push(rssMb());
  console.log(`  +${Math.min(t + 30, SECONDS)} s: RSS ${samples.at(-1)!.toFixed(1)} MB, ${seq} requests`);
}
stop = true;
await load;
const end = rssMb();
await sleep(10);
const idle = rssMb();
console.log(`requests: ${seq} in ${WARMUP + SECONDS} s with ${CLIENTS} clients`);
console.log(`status histogram: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
console.log(
  `RSS after warm-up ${afterWarmup.toFixed(1)} MB → after ${SECONDS} s of load ${end.toFixed(1)} MB (growth ` +
    `${(end - afterWarmup).toFixed(1)} MB); after 10 s idle ${idle.toFixed(1)} MB`,
);
console.log(
  `server log lines mentioning internal errors: ` +
    `${serverErr.split('\n').filter((l) => /internal error/.test(l)).length}`,
);
server.kill('SIGTERM');
await new Promise((r) => server.once('exit', r));
ws.cleanup();
