// Starts the HTTP server for `createTransport.for("mcp")`: checks the exposure policy before anything
// listens, collects the plugins' surfaces (`httpRoutes`), listens, and describes what it serves.
import type { HttpSurface, RunningTransport, ServeState } from '../../core/index.ts';
import { parseBind, toHttpUrl } from '../../src/http/bind-address.ts';
import { createHttpServer } from '../../src/http/create-http-server.ts';
import { checkExposure } from '../../src/http/exposure-policy.ts';
import { closeGracefully, listen } from '../../src/http/listen.ts';

export async function startHttpServer(state: ServeState, bindText: string): Promise<RunningTransport> {
  const config = state.kbctx.config.server;
  const bind = parseBind(bindText);
  const exposure = checkExposure(config, bind.host, state.env); // refuses an open remote bind before anything listens
  if (exposure.warning && !state.isWorker) state.log(exposure.warning);
  const surfaces = await state.httpSurfaces();
  const closeSurfaces = (): Promise<unknown> => Promise.all(surfaces.map((s) => s.close?.() ?? Promise.resolve()));
  const server = createHttpServer({
    version: state.version,
    config,
    bindHost: bind.host,
    surfaces,
    log: state.log,
    debug: state.debug,
    authToken: exposure.token,
  });
  const address = await listen(server, bind.host, bind.port).catch(async (error: unknown) => {
    await closeSurfaces();
    throw error;
  });
  const base = toHttpUrl(address.address, address.port);
  return {
    describe: () => [...surfaces.flatMap((s) => s.listing?.() ?? []), `Listening on ${base}`, ...surfaces.flatMap((s: HttpSurface) => s.describe?.(base) ?? [])],
    close: async () => {
      await Promise.all([closeGracefully(server), closeSurfaces()]);
    },
  };
}
