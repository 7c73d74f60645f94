// Runs the server (`kbctx serve mcp`, `serve stdio`, `kbctx start`): opens the index, loads scripts, starts the live
// index (when the live-index plugin is loaded), then the transport a plugin provides (`createTransport.for("mcp")`, the
// HTTP server, or `"stdio"`), prints its banner and serves until SIGINT/SIGTERM. With `[server] workers` the primary
// runs the live index and forks workers that each start the transport. Loaded lazily so other commands never load the
// server code.
import { configError, KbctxError } from '../../../core/api/plugin.ts';
import { serverConfigOf, type ServerConfig } from '../../transport-http/api.ts';
import type { RunningTransport } from '../../../core/api/plugin.ts';
import { loadServerPolicy } from '../../transport-http/api.ts';
import { VERSION } from '../../../core/api/host.ts';
import cluster from 'node:cluster';
import { announceListening, isClusterWorker, runPrimary } from './serve-cluster.ts';
import { NO_LIVE_INDEX, startLiveIndex } from './serve-live.ts';
import { guardServerFaults } from './serve-faults.ts';
import type { CliContext } from '../context.ts';
import { getCliHooks, serveService } from '../api.ts';
import { toolsOf } from '../../tool-registry/api.ts';
import { agentsOf } from '../../agents-inline/api.ts';
import type { Kbctx } from '../../../core/api/host.ts';
import { lineLog } from '../../../core/api/host.ts';

export interface ServeOptions {
  bind?: string | undefined;
  stdio?: boolean | undefined;
  workers?: number | undefined;
  /** false: --no-watch. */
  watch?: boolean | undefined;
}

/** The bundled plugin that provides each of kbctx's own transports (for the error when it is dropped). */
const TRANSPORT_PLUGINS: Readonly<Record<string, string>> = { mcp: 'transport-http', stdio: 'mcp-stdio' };

export async function serveFromCli(ctx: CliContext, options: ServeOptions): Promise<void> {
  if (!options.stdio) await checkServerConfig(serverConfigOf(ctx.config()), options.bind, ctx.io.env);
  const kbctx = ctx.kbctx('create');
  const log = lineLog(ctx.io.err);
  // A plugin's own timer or floating promise that fails is logged naming it; the server goes on (ADR 0142).
  const unguard = guardServerFaults(kbctx.kernel, log);
  try {
    await serve(ctx, kbctx, options, log);
  } finally {
    unguard();
  }
}

async function serve(ctx: CliContext, kbctx: Kbctx, options: ServeOptions, log: (line: string) => void): Promise<void> {
  const worker = isClusterWorker();
  if (!worker) log(`config: ${kbctx.config.file ?? 'built-in default (no config file found)'}`);
  await openIndex(kbctx, worker ? () => undefined : log);
  // Script tools and agents are read in the Lua sandbox before anything lists them; a broken one is left out.
  for (const f of await kbctx.ready()) log(`warning: ${f.label} not loaded: ${f.message}`);
  const name = options.stdio ? 'stdio' : 'mcp';
  const hook = kbctx.kernel.hooks.createTransport.get(name);
  if (!hook?.isUsed())
    throw new KbctxError(
      'config_error',
      `the ${name} transport is provided by the plugin ${TRANSPORT_PLUGINS[name]}, ` +
        `which is not loaded (check plugins in the config)`,
    );
  const workers = options.stdio ? 1 : (options.workers ?? serverConfigOf(kbctx.config).workers);
  if (workers > 1 && !worker) {
    // The primary supervises and is the one scheduler/writer of the live index; workers only serve.
    log(`starting ${workers} worker processes`);
    const live = await startLiveIndex(kbctx, { watch: options.watch, log, role: 'primary' });
    const { clusterPrimary } = await import('./serve-cluster-channel.ts');
    const channel = clusterPrimary(() => Object.values(cluster.workers ?? {}));
    getCliHooks(kbctx.kernel).clusterPrimary.call(channel.channel);
    await runPrimary(
      workers,
      (lines) => ctx.io.out(lines.map((l) => `${l}\n`).join('')),
      log,
      (w) => {
        live?.attachWorker(w);
        channel.attach(w);
      },
    );
    await live?.close();
    await kbctx.close();
    return;
  }
  const live = await startLiveIndex(kbctx, { watch: options.watch, log, role: worker ? 'worker' : 'single' });
  if (worker)
    getCliHooks(kbctx.kernel).clusterWorker.call((await import('./serve-cluster-channel.ts')).clusterWorker());
  const tools = toolsOf(kbctx.kernel);
  const agents = agentsOf(kbctx.kernel);
  const debug = ctx.io.env['KBCTX_DEBUG'] ? log : undefined;
  kbctx.kernel.services.provide(
    serveService,
    { kbctx, tools, agents, live, version: VERSION, env: ctx.io.env, log, debug, isWorker: worker },
    'kbctx',
  );
  let running: RunningTransport | undefined;
  try {
    running = await hook.promise(
      {
        bind: options.bind ?? serverConfigOf(kbctx.config).bind,
        options: { ...(kbctx.config.plugins.options[name] ?? {}) },
      },
      kbctx.kernel.callContext(),
    );
  } finally {
    if (!running) await live?.close(); // the address is taken: stop the watchers so the command exits
  }
  if (!running)
    throw new KbctxError(
      'usage',
      `transport '${name}': no plugin started it (every createTransport tap returned nothing)`,
    );
  const banner = [...(running.describe?.() ?? []), ...(live ? [] : [NO_LIVE_INDEX])];
  if (worker) announceListening(banner);
  else if (name === 'stdio')
    banner.forEach((l) => log(l)); // stdout carries the protocol
  else ctx.io.out(banner.map((l) => `${l}\n`).join(''));
  await kbctx.kernel.hooks.ready.promise(kbctx.kernel.callContext());
  await (running.done ?? untilSignal(log));
  // Settled, not all: a part failing to close (PostgreSQL gone) must not become an unhandled rejection.
  const closed = await Promise.allSettled([running.close(), live?.close()]);
  for (const c of closed) if (c.status === 'rejected') log(`shutdown: ${(c.reason as Error).message}`);
  if (worker) process.disconnect?.(); // the IPC channel would keep a worker alive
}

/**
 * `[server]` checked before the index is opened, synced or watched, and before any worker starts (a
 * worker failing it would be restarted forever): a malformed bind, a token variable that is not set,
 * an open remote bind. The transport checks again as it listens (the library's handler has no CLI).
 */
async function checkServerConfig(
  server: ServerConfig,
  bindFlag: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const { parseBind, checkExposure } = await loadServerPolicy();
  let host: string;
  try {
    host = parseBind(bindFlag ?? server.bind).host;
  } catch (error) {
    const why = (error as Error).message;
    throw bindFlag === undefined ? configError(`[server].bind: ${why}`) : new KbctxError('usage', `--bind: ${why}`);
  }
  checkExposure(server, host, env);
}

/** Resolves on the first SIGINT or SIGTERM. */
function untilSignal(log: (line: string) => void): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = (signal: string): void => {
      log(`${signal}: shutting down`);
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve();
    };
    const onInt = (): void => stop('SIGINT');
    const onTerm = (): void => stop('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
  });
}

/**
 * Opens the index before serving, so a PostgreSQL replica builds or catches up its mirror now rather
 * than in the first request. PostgreSQL unreachable is not fatal: requests get 503 until it answers.
 */
async function openIndex(kbctx: Kbctx, log: (line: string) => void): Promise<void> {
  try {
    const counts = await kbctx.store.counts();
    log(`index: ${kbctx.store.path} (${kbctx.index.engine}, ${counts.documents} documents)`);
  } catch (error) {
    log(
      `index: ${kbctx.store.path} (${kbctx.index.engine}) not reachable ` +
        `yet: ${(error as Error).message}; serving 503 until it is`,
    );
  }
}
