// Runs the server (`kbctx serve mcp`, `kbctx start`): wires the REST surface and the MCP surface to the
// app's registries, prints the routes and addresses, and serves until SIGINT/SIGTERM.
// Loaded lazily so other commands never load the HTTP or MCP code.
import { packageRoot } from '../../../core/package-root.ts';
import path from 'node:path';
import { createHttpServer, MCP_PATH } from '../../http/create-http-server.ts';
import { parseBind, toHttpUrl } from '../../http/bind-address.ts';
import { checkExposure } from '../../http/exposure-policy.ts';
import { closeGracefully, listen } from '../../http/listen.ts';
import { toolRouteMethod } from '../../http/rest-routes.ts';
import { createMcpHttpHandler, listenLimitsOf } from '../../mcp/mcp-http-handler.ts';
import { runMcpStdio } from '../../mcp/mcp-stdio.ts';
import { listDocumentPage, type DocumentPage } from '../../app/documents.ts';
import { VERSION } from '../../version.ts';
import { createWebSurface } from '../../web/create-web-surface.ts';
import { announceListening, isClusterWorker, runPrimary } from './serve-cluster.ts';
import { startLiveIndex, type LiveIndex } from './serve-live.ts';
import type { CliContext } from '../context.ts';
import type { Kbctx } from '../../compose.ts';
import type { WebFacts } from '../../web/web-routes.ts';
import { lineLog } from '../../core/log-line.ts';

export interface ServeOptions {
  bind?: string | undefined;
  stdio?: boolean | undefined;
  workers?: number | undefined;
  /** false: --no-watch. */
  watch?: boolean | undefined;
}

export async function serveFromCli(ctx: CliContext, options: ServeOptions): Promise<void> {
  const kbctx = ctx.kbctx();
  const log = lineLog(ctx.io.err);
  const documents = (cursor: string | undefined): Promise<DocumentPage> => listDocumentPage(kbctx.store, cursor);
  if (!isClusterWorker()) log(`config: ${kbctx.config.file ?? 'built-in default (no config file found)'}`);
  await openIndex(kbctx, isClusterWorker() ? () => undefined : log);
  // Script tools and agents are read in the Lua sandbox before anything lists them; a broken one is left out.
  for (const f of await kbctx.loadScripts()) log(`warning: ${f.label} not loaded: ${f.message}`);
  const tools = kbctx.tools();
  const agents = kbctx.agents();
  if (options.stdio) {
    // stdout carries the protocol: everything human goes to stderr.
    log(`kbctx ${VERSION}: MCP over stdio (${tools.list().length} tools, ${agents.list().length} prompts)`);
    const live = await startLiveIndex(kbctx, { watch: options.watch, log, role: 'single' });
    await runMcpStdio({ tools, agents, version: VERSION, log, documents, syncStatus: live.statusJson, onIndexChanged: live.onIndexChanged });
    await live.close();
    return;
  }
  const config = kbctx.config.server;
  const bind = parseBind(options.bind ?? config.bind);
  const exposure = checkExposure(config, bind.host, ctx.io.env); // refuses an open remote bind before anything listens
  if (exposure.warning && !isClusterWorker()) log(exposure.warning);
  const debug = ctx.io.env['KBCTX_DEBUG'] ? log : undefined;
  const printStartup = (base: string): void => {
    for (const tool of tools.list()) ctx.io.out(`${toolRouteMethod(tool.name)} /tools/${tool.name}  ${tool.description}\n`);
    ctx.io.out(`Listening on ${base}\nMCP endpoint: ${base}${MCP_PATH}\nWeb page: ${base}/\n`);
  };
  const workers = options.workers ?? config.workers;
  if (workers > 1 && !isClusterWorker()) {
    // The primary supervises and is the one scheduler/writer of the live index; workers only serve.
    log(`starting ${workers} worker processes`);
    const live = await startLiveIndex(kbctx, { watch: options.watch, log, role: 'primary' });
    await runPrimary(workers, printStartup, log, live.attachWorker);
    await live.close();
    await kbctx.close();
    return;
  }
  const live: LiveIndex = await startLiveIndex(kbctx, { watch: options.watch, log, role: isClusterWorker() ? 'worker' : 'single' });
  const mcp = createMcpHttpHandler({ tools, agents, version: VERSION, maxBodyBytes: config.maxBodyBytes, listenLimits: listenLimitsOf(config), log, documents, syncStatus: live.statusJson });
  const web = createWebSurface({ store: kbctx.store, connectorLabels: kbctx.connectorLabels, facts: webFacts(kbctx) });
  live.onIndexChanged(() => mcp.resourcesChanged());
  const server = createHttpServer({ tools, agents, version: VERSION, config, bindHost: bind.host, mcp, web, log, debug, authToken: exposure.token, sync: live.control, syncTokenRequired: exposure.token !== null });
  const address = await listen(server, bind.host, bind.port).catch(async (error: unknown) => {
    await Promise.all([mcp.close(), live.close()]); // the address is taken: stop the watchers so the command exits
    throw error;
  });
  const base = toHttpUrl(address.address, address.port);
  if (isClusterWorker()) announceListening(base);
  else printStartup(base);
  await kbctx.kernel.hooks.ready.promise(kbctx.kernel.callContext());
  await new Promise<void>((resolve) => {
    const stop = (signal: string): void => {
      log(`${signal}: shutting down`);
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      // Settled, not all: a part failing to close (PostgreSQL gone) must not become an unhandled rejection.
      void Promise.allSettled([closeGracefully(server), mcp.close(), live.close()]).then((closed) => {
        for (const c of closed) if (c.status === 'rejected') log(`shutdown: ${(c.reason as Error).message}`);
        if (isClusterWorker()) process.disconnect?.(); // the IPC channel would keep a worker alive
        resolve();
      });
    };
    const onInt = (): void => stop('SIGINT');
    const onTerm = (): void => stop('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
  });
}

/** What the web page shows about this server (connect-an-agent configs, search modes). */
function webFacts(kbctx: Kbctx): WebFacts {
  let embedder: WebFacts['embedder'] = null;
  try {
    embedder = kbctx.embedder();
  } catch {
    // a broken [embedding] section leaves semantic search unavailable; the page says so
  }
  return {
    version: VERSION,
    configFile: kbctx.config.file,
    workingDir: kbctx.config.baseDir,
    kbctxBin: path.join(packageRoot(), 'bin', 'kbctx.js'),
    embedder: embedder && { model: embedder.model, dims: embedder.dims },
    defaultLimit: kbctx.config.retrieval.finalLimit,
    maxLimit: kbctx.config.retrieval.maxLimit,
    authTokenEnv: kbctx.config.server.authTokenEnv,
  };
}

/**
 * Opens the index before serving, so a PostgreSQL replica builds or catches up its mirror now rather
 * than in the first request. PostgreSQL unreachable is not fatal: requests get 503 until it answers.
 */
async function openIndex(kbctx: Kbctx, log: (line: string) => void): Promise<void> {
  try {
    const counts = await kbctx.store.counts();
    log(`index: ${kbctx.store.path} (${kbctx.engine}, ${counts.documents} documents)`);
  } catch (error) {
    log(`index: ${kbctx.store.path} (${kbctx.engine}) not reachable yet: ${(error as Error).message}; serving 503 until it is`);
  }
}
