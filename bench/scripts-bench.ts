// `npm run bench:scripts`: the Lua runtime under load. Numbers are printed, never asserted.
// 1. Per-call overhead of a trivial script tool (validation, worker round trip, fresh Lua state,
//    script load, JSON back): p50/p95 through ToolRegistry.call and through POST /tools/<name>.
// 2. A storm: 50 parallel POST /tools/runaway (`while true do end`, timeout 1 s) against the real
//    REST server on 127.0.0.1 while /health and POST /tools/search keep being asked: prints their
//    p50/p99 before and during the storm, and how close to the time-out each runaway call was answered.
// 3. Hostile clients (hostile-scripts.ts): p99 of valid script-tool calls while 2 clients keep calling
//    a runaway tool with a 5 s time-out. BENCH_ONLY=hostile runs this part alone.
import { luaRuntimeService } from '../plugins/lua-bridge/scripting/scripting-service.ts';
import '../registry/bundled.ts'; // the bundled plugin set (core/app/bundled-set.ts)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseConfig } from '../core/config/load-config.ts';
import { openKbctx } from '../core/app/compose.ts';
import { selectConnectors } from '../core/app/select-connectors.ts';
import { syncConnectors } from '../core/app/sync.ts';
import { buildHttpApp } from '../plugins/transport-http/http-app.ts';
import { closeGracefully } from '../plugins/transport-http/start-http-server.ts';
import { serverConfigOf } from '../plugins/transport-http/api.ts';
import { createMcpHttpHandler, listenLimitsOf, mcpHttpSurface } from '../plugins/mcp-http/mcp-http-handler.ts';
import { createServerFactory } from '../plugins/mcp-server/server-factory.ts';
import { restSurface } from '../plugins/rest/rest-routes.ts';
import { VERSION } from '../core/config/version.ts';
import { runHostileScenario } from './hostile-scripts.ts';
import { fmtMs, percentile } from './stats.ts';
import { toolsOf } from '../plugins/tool-registry/api.ts';
import { agentsOf } from '../plugins/agents-inline/api.ts';

const CALLS = Number(process.env['BENCH_CALLS'] ?? 300);
const STORM = 50;
const TIMEOUT_SECS = 1;
const HOSTILE_TIMEOUT_SECS = 5;
const ONLY_HOSTILE = process.env['BENCH_ONLY'] === 'hostile';

const dir = mkdtempSync(path.join(tmpdir(), 'kbctx-scripts-bench-'));
mkdirSync(path.join(dir, 'docs'));
mkdirSync(path.join(dir, 'tools'));
const words = ['deploy', 'rotate', 'keys', 'login', 'cache', 'queue', 'retry', 'schema', 'index', 'backup'];
for (let i = 0; i < 300; i++) {
  writeFileSync(
    path.join(dir, 'docs', `d${i}.md`),
    `# Note ${i}\n\n${Array.from({ length: 80 }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(' ')}\n`,
  );
}
writeFileSync(
  path.join(dir, 'tools', 'trivial.lua'),
  'tool = { parameters = { { name = "x", type = "integer", default = 1 } } }\n' +
    'function tool.execute(p) return { x = p.x } end\n',
);
writeFileSync(
  path.join(dir, 'tools', 'runaway.lua'),
  'tool = { parameters = {} }\nfunction tool.execute() while true do end end\n',
);
const kbctx = openKbctx(
  parseConfig(
    `[db]\npath = "index.sqlite"\n[connectors.filesystem.docs]\nroot = "docs"\n[tools.script.trivial]\npath = ` +
      `"tools/trivial.lua"\n[tools.script.runaway]\npath = "tools/runaway.lua"\ntimeout = ${TIMEOUT_SECS}\n` +
      `[tools.script.hostile]\npath = "tools/runaway.lua"\ntimeout = ${HOSTILE_TIMEOUT_SECS}\n`,
    { file: 'bench.toml', cwd: dir, env: {} },
  ),
);

try {
  await syncConnectors(
    kbctx.index.syncDeps(),
    await Promise.all(selectConnectors(kbctx.config, 'all').map((r) => kbctx.index.createConnector(r))),
    { full: false },
  );
  const failures = await kbctx.ready();
  if (failures.length > 0) throw new Error(failures.map((f) => f.message).join('; '));
  const tools = toolsOf(kbctx.kernel);

  // 1. Per-call overhead.
  for (let i = 0; i < 30; i++) await tools.call('trivial', { x: i });
  const perCall: number[] = [];
  for (let i = 0; i < (ONLY_HOSTILE ? 0 : CALLS); i++) {
    const started = performance.now();
    await tools.call('trivial', { x: i });
    perCall.push(performance.now() - started);
  }
  if (!ONLY_HOSTILE)
    console.log(
      `trivial script tool, ToolRegistry.call, ${CALLS} sequential calls: p50 ${fmtMs(percentile(perCall, 50))} ` +
        `ms, p95 ${fmtMs(percentile(perCall, 95))} ms`,
    );

  // The real REST + MCP server, as `kbctx serve mcp` builds it.
  const agents = agentsOf(kbctx.kernel);
  const mcp = createMcpHttpHandler({
    server: createServerFactory({ tools, agents, version: VERSION, log: () => {} }),
    maxBodyBytes: serverConfigOf(kbctx.config).maxBodyBytes,
    listenLimits: listenLimitsOf(serverConfigOf(kbctx.config)),
    log: () => {},
  });
  const server = await buildHttpApp({
    version: VERSION,
    config: serverConfigOf(kbctx.config),
    bindHost: '127.0.0.1',
    surfaces: [restSurface({ tools, agents }), mcpHttpSurface(mcp)],
    log: () => {},
  });
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  const address = server.server.address() as { port: number };
  const base = `http://127.0.0.1:${address.port}`;
  const request = (pathName: string, body?: unknown): Promise<Response> =>
    fetch(
      `${base}${pathName}`,
      body === undefined
        ? {}
        : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    );

  const runtime = (await kbctx.kernel.services.use(luaRuntimeService).open()).runtime;
  const hostile = (): Promise<void> =>
    runHostileScenario({
      request,
      runaway: 'hostile',
      valid: 'trivial',
      hostileClients: 2,
      durationMs: 15_000,
      workers: () => runtime.workers,
    });
  if (ONLY_HOSTILE) {
    await hostile();
    await Promise.all([closeGracefully(server, 100), mcp.close()]);
  } else {
    const overRest: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const started = performance.now();
      await (await request('/tools/trivial', { x: i })).json();
      overRest.push(performance.now() - started);
    }
    console.log(
      `trivial script tool, POST /tools/trivial, ${CALLS} sequential requests: p50 ` +
        `${fmtMs(percentile(overRest, 50))} ms, p95 ${fmtMs(percentile(overRest, 95))} ms`,
    );

    const probe = async (pathName: string, until: () => boolean, every: number): Promise<number[]> => {
      const out: number[] = [];
      while (!until()) {
        const started = performance.now();
        await (
          await (pathName === '/health' ? request('/health') : request('/tools/search', { query: 'rotate keys' }))
        ).text();
        out.push(performance.now() - started);
        await new Promise((r) => setTimeout(r, every));
      }
      return out;
    };
    const timed = async (ms: number): Promise<{ health: number[]; search: number[] }> => {
      const end = performance.now() + ms;
      const [health, searchTimes] = await Promise.all([
        probe('/health', () => performance.now() > end, 5),
        probe('/tools/search', () => performance.now() > end, 10),
      ]);
      return { health, search: searchTimes };
    };
    const quiet = await timed(1500);

    let done = false;
    const stormStarted = performance.now();
    const storm = Promise.all(
      Array.from({ length: STORM }, async () => {
        const started = performance.now();
        const res = await request('/tools/runaway', {});
        await res.text();
        return { ms: performance.now() - started, code: String(res.status) };
      }),
    ).finally(() => (done = true));
    const [results, health, searchTimes] = await Promise.all([
      storm,
      probe('/health', () => done, 5),
      probe('/tools/search', () => done, 10),
    ]);
    const stormMs = performance.now() - stormStarted;
    await hostile();
    await Promise.all([closeGracefully(server, 100), mcp.close()]);

    const line = (name: string, v: number[]): string =>
      `${name}: n=${v.length} p50 ${fmtMs(percentile(v, 50))} ms, p99 ${fmtMs(percentile(v, 99))} ms, max ` +
      `${fmtMs(Math.max(...v))} ms`;
    console.log(line('/health before the storm', quiet.health));
    console.log(line('POST /tools/search before the storm', quiet.search));
    console.log(line(`/health during ${STORM} runaway calls`, health));
    console.log(line(`POST /tools/search during ${STORM} runaway calls`, searchTimes));
    const errors = results.map((r) => (r.ms / 1000 - TIMEOUT_SECS) / TIMEOUT_SECS);
    const codes = [...new Set(results.map((r) => r.code))].join(',');
    console.log(
      `POST /tools/runaway ×${results.length}: answered (status ${codes}) in ${fmtMs(stormMs)} ms; time-out ` +
        `${TIMEOUT_SECS} s, answered at ` +
        `median ${fmtMs(
          percentile(
            results.map((r) => r.ms),
            50,
          ),
        )} ms, max ${fmtMs(Math.max(...results.map((r) => r.ms)))} ms ` +
        `(error: median ${(percentile(errors, 50) * 100).toFixed(1)} %, worst ` +
        `${(Math.max(...errors.map(Math.abs)) * 100).toFixed(1)} %)`,
    );
    await tools.call('trivial', {});
    console.log(`after the storm: trivial call ok, ${runtime.workers} worker thread(s) live`);
  }
} finally {
  await kbctx.close();
  rmSync(dir, { recursive: true, force: true });
}
