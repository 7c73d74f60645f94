// `npm run bench:attach`: what one `kbctx serve stdio --attach <url>` bridge costs (ADR 0218). A real
// `kbctx serve mcp` on 127.0.0.1 serves a small index; BENCH_RUNS times a bridge is spawned and timed from
// spawn to its answer to `initialize`, then a tools/list and a search go through it and its memory is read from
// /proc (VmRSS now, VmHWM peak). For scale, the same for a bare Node process answering each line (the floor on this
// machine) and for `kbctx serve stdio` opening the index itself.
// Then ten bridges against the one server (issue 34's Show): started one after another and all kept open, each
// bridge's start (spawn → its `initialize` answered) and RSS after a search through it (all ten searching at once),
// their medians and max, and the server's RSS before the first and after the tenth. `--ten`: that part alone.
// Both for the bridge as a clone runs it (TypeScript sources: Node's type stripping loads its wasm, ~18 MB) and as
// the package runs it (JavaScript, as dist/ has it: here the bridge's five files stripped into a temp folder and
// started without bin/kbctx.js, whose own cost is a few imports of node built-ins).
// Medians printed; nothing asserted. Linux only (/proc). Env: BENCH_RUNS (10).
import { spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import path from 'node:path';
import { spawnServer } from '../test/helpers/kbctx-server.ts';
import { BASE_CONFIG, DOCS } from '../test/helpers/server.ts';
import { KBCTX_BIN, Workspace } from '../test/helpers/workspace.ts';
import { fmtMs, median } from './stats.ts';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 10);
const ws = new Workspace('kbctx-bench-attach-');
for (const [file, text] of Object.entries(DOCS)) ws.write(file, text);
ws.config(BASE_CONFIG);
await ws.kbctx(['sync', 'all']);
const server = await spawnServer(ws, ['serve', 'mcp', '--bind', '127.0.0.1:0', '--no-watch']);

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
};

/** Newline-delimited JSON-RPC with one child: send a message, await the answer with its id. */
type Message = Record<string, unknown> & { id?: number };

function lines(child: { stdin: Writable; stdout: Readable }): (message: Message) => Promise<unknown> {
  let buffer = '';
  const waiting = new Map<number, (m: unknown) => void>();
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    buffer += d;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const m = JSON.parse(buffer.slice(0, nl)) as { id?: number };
      buffer = buffer.slice(nl + 1);
      if (m.id !== undefined) waiting.get(m.id)?.(m);
    }
  });
  return (message) =>
    new Promise((resolve) => {
      if (message.id !== undefined) waiting.set(message.id, resolve);
      child.stdin.write(`${JSON.stringify(message)}\n`);
      if (message.id === undefined) resolve(undefined);
    });
}

// The floor on this machine: a bare Node process that answers every request line with an empty result.
const ECHO = `process.stdin.setEncoding('utf8').on('data', (d) => { for (const l of d.split('\\n')) { if (!l) continue;
  const m = JSON.parse(l);
  if (m.id !== undefined)
    process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: {} }) + '\\n'); } });`;

const procKb = (pid: number, field: string): number =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);

interface Run {
  startMs: number;
  rssMb: number;
  peakMb: number;
}

/** A child speaking JSON-RPC on stdio, timed from spawn to its `initialize` answer. */
async function started(args: string[]) {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ws.dir,
    env: { ...process.env, KBCTX_CONFIG: '' },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const exit = new Promise((resolve) => child.on('exit', resolve));
  const send = lines(child);
  await send(INITIALIZE);
  const startMs = performance.now() - t0;
  await send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return {
    startMs,
    send,
    pid: child.pid!,
    /** tools/list, then a search. */
    async use(): Promise<void> {
      await send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      await send({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'search', arguments: { query: 'write-ahead logging' } },
      });
    },
    async end(): Promise<void> {
      child.stdin.end();
      await exit;
    },
  };
}

async function once(args: string[]): Promise<Run> {
  const child = await started(args);
  await child.use();
  const run = {
    startMs: child.startMs,
    rssMb: procKb(child.pid, 'VmRSS') / 1024,
    peakMb: procKb(child.pid, 'VmHWM') / 1024,
  };
  await child.end();
  return run;
}

/** The bridge's own files as JavaScript (what `npm run build` puts in dist/), in the workspace; its entry. */
function bridgeAsBuilt(): string {
  const root = path.join(import.meta.dirname, '..');
  const files = [
    'registry/cli.ts',
    ...['api', 'bridge', 'request-headers', 'sse-reader'].map((f) => `plugins/mcp-attach/${f}.ts`),
  ];
  const out = path.join(ws.dir, 'built');
  for (const file of files) {
    const js = stripTypeScriptTypes(readFileSync(path.join(root, file), 'utf8'), { mode: 'transform' });
    const target = path.join(out, file.replace(/\.ts$/, '.js'));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, js.replace(/(['"]\.{1,2}\/[^'"]+)\.ts(['"])/g, '$1.js$2'));
  }
  writeFileSync(path.join(out, 'package.json'), '{"type":"module"}\n');
  return path.join(out, 'registry/cli.js');
}

/** Ten bridges against the one server, all open at once. */
async function tenBridges(name: string, entry: string): Promise<void> {
  const url = `${server.url}/mcp`;
  const serverBefore = procKb(server.child.pid!, 'VmRSS') / 1024;
  const bridges = [];
  for (let i = 0; i < 10; i++) bridges.push(await started([entry, 'serve', 'stdio', '--attach', url]));
  await Promise.all(bridges.map((b) => b.use()));
  const runs: Run[] = bridges.map((b) => ({
    startMs: b.startMs,
    rssMb: procKb(b.pid, 'VmRSS') / 1024,
    peakMb: procKb(b.pid, 'VmHWM') / 1024,
  }));
  const serverAfter = procKb(server.child.pid!, 'VmRSS') / 1024;
  console.log(`ten bridges (serve stdio --attach, ${name}), started one after another, all kept open:`);
  runs.forEach((r, i) =>
    console.log(
      `  bridge ${String(i + 1).padStart(2)}: start ${fmtMs(r.startMs)} ms · RSS ${r.rssMb.toFixed(1)} MB (peak ` +
        `${r.peakMb.toFixed(1)} MB)`,
    ),
  );
  const stat = (pick: (r: Run) => number, digits: number) =>
    `median ${median(runs.map(pick)).toFixed(digits)}, max ${Math.max(...runs.map(pick)).toFixed(digits)}`;
  console.log(`  start ms: ${stat((r) => r.startMs, 0)} · RSS MB: ${stat((r) => r.rssMb, 1)}`);
  console.log(
    `  server RSS: ${serverBefore.toFixed(1)} MB before the first bridge, ` +
      `${serverAfter.toFixed(1)} MB with ten open after a search each`,
  );
  await Promise.all(bridges.map((b) => b.end()));
}

async function report(name: string, args: string[]): Promise<void> {
  const runs: Run[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await once(args));
  const m = (pick: (r: Run) => number): number => median(runs.map(pick));
  console.log(
    `${name.padEnd(28)} start (spawn → initialize answered) median ${fmtMs(m((r) => r.startMs))} ms · ` +
      `RSS after a search median ${m((r) => r.rssMb).toFixed(1)} MB (peak ${m((r) => r.peakMb).toFixed(1)} MB) · ` +
      `${RUNS} runs`,
  );
}

try {
  console.log(`node ${process.version}, server ${server.url}`);
  if (!process.argv.includes('--ten')) {
    await report('bare node (baseline)', ['--input-type=module', '-e', ECHO]);
    await report('serve stdio --attach <url>', [KBCTX_BIN, 'serve', 'stdio', '--attach', `${server.url}/mcp`]);
    await report('serve stdio (own index)', [KBCTX_BIN, 'serve', 'stdio', '--no-watch']);
  }
  const built = bridgeAsBuilt();
  if (!process.argv.includes('--ten'))
    await report('--attach, built JavaScript', [built, 'serve', 'stdio', '--attach', `${server.url}/mcp`]);
  await tenBridges('TypeScript sources, as a clone runs it', KBCTX_BIN);
  await tenBridges('built JavaScript, as the package runs it', built);
} finally {
  await server.stop();
  ws.cleanup();
}
