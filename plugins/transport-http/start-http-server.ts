// Starts the HTTP server for `createTransport.for("mcp")`: checks the exposure policy before anything
// listens, collects the plugins' surfaces (`httpRoutes`), builds the listener's fastify instance,
// listens, and describes what it serves. `createHttpListener` is the same without listening (the
// library's createHttpHandler, `createTransport.for("http-handler")`).
import { KbctxError, type RunningTransport } from '../../core/index.ts';
import type { ServeState } from '../cli/api.ts';
import { parseBind, toHttpUrl } from './bind-address.ts';
import { checkExposure } from './exposure-policy.ts';
import { buildHttpApp, type HttpListener } from './http-app.ts';
import type { HttpHooks, HttpSurface } from './api.ts';
import { serverConfigOf } from './server-section.ts';

interface Built {
  listener: HttpListener;
  running: Omit<RunningTransport, 'close' | 'describe'>;
  describe(base: string): string[];
  close(): Promise<void>;
}

async function build(
  state: ServeState,
  hooks: HttpHooks,
  bindText: string,
  listening: boolean,
): Promise<Built & { host: string; port: number }> {
  const config = serverConfigOf(state.kbctx.config);
  const bind = parseBind(bindText);
  // refuses an open remote bind before anything listens (a mounted handler: only the token applies)
  const exposure =
    listening || config.authTokenEnv !== null || config.tokens.length > 0
      ? checkExposure(config, bind.host, state.env)
      : { tokens: [], warning: null };
  if (exposure.warning && !state.isWorker) state.log(exposure.warning);
  const surfaces: HttpSurface[] = [];
  await hooks.httpRoutes.promise({ add: (s) => void surfaces.push(s) }, state.kbctx.kernel.callContext());
  const closeSurfaces = async (): Promise<void> =>
    void (await Promise.all(surfaces.map((s) => s.close?.() ?? Promise.resolve())));
  const listener = await buildHttpApp({
    version: state.version,
    config,
    bindHost: bind.host,
    surfaces,
    log: state.log,
    debug: state.debug,
    tokens: exposure.tokens,
  }).catch(async (error: unknown) => {
    await closeSurfaces();
    throw error;
  });
  return {
    listener,
    host: bind.host,
    port: bind.port,
    running: { handle: listener.handler },
    describe: (base) => [
      ...surfaces.flatMap((s) => s.listing?.() ?? []),
      `Listening on ${base}`,
      ...surfaces.flatMap((s) => s.describe?.(base) ?? []),
    ],
    close: async () => {
      await Promise.all([closeGracefully(listener), closeSurfaces()]);
    },
  };
}

export async function startHttpServer(
  state: ServeState,
  hooks: HttpHooks,
  bindText: string,
): Promise<RunningTransport> {
  const built = await build(state, hooks, bindText, true);
  let address: string;
  try {
    await built.listener.app.listen({ host: built.host, port: built.port });
    const info = built.listener.server.address() as { address: string; port: number };
    address = toHttpUrl(info.address, info.port);
  } catch (error) {
    await built.close();
    const e = error as NodeJS.ErrnoException;
    const why =
      e.code === 'EADDRINUSE' ? 'the address is already in use' : e.code === 'EACCES' ? 'permission denied' : e.message;
    throw new KbctxError(
      'conflict',
      `cannot listen on ${built.host}:${built.port}: ${why} (set [server].bind or --bind, e.g. --bind 127.0.0.1:0)`,
      { cause: error },
    );
  }
  return { describe: () => built.describe(address), close: built.close };
}

/** The same server as a node:http listener to mount elsewhere (nothing listens). */
export async function createHttpListener(
  state: ServeState,
  hooks: HttpHooks,
  bindText: string,
): Promise<RunningTransport> {
  const built = await build(state, hooks, bindText, false);
  return { ...built.running, close: built.close };
}

/**
 * Stops accepting connections, lets in-flight requests finish for up to `graceMs`, then closes the rest (open SSE
 * streams).
 */
export async function closeGracefully({ app, server }: HttpListener, graceMs = 5_000): Promise<void> {
  const timer = setTimeout(() => server.closeAllConnections(), graceMs);
  timer.unref();
  await app.close();
  clearTimeout(timer);
}
