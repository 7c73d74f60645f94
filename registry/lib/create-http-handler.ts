// The library's `createHttpHandler(kbctx)`: the HTTP server of `kbctx serve` as one node:http listener
// to mount in another server. It is the transport plugin's own fastify instance (`createTransport
// .for("http-handler")`, transport-http) with every plugin's `httpRoutes` (REST, `/mcp`, the web page,
// third-party routes), so auth, the Host guard and limits are the same as `kbctx serve`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { KbctxError, errorMapping } from '../../core/domain/errors.ts';
import { parseBind } from '../../plugins/transport-http/bind-address.ts';
import { checkExposure, type ExposureSettings } from '../../plugins/transport-http/exposure-policy.ts';
import { sectionOf } from '../../core/config/sections-of.ts';
import { serveService } from '../../plugins/cli/api.ts';
import { toolsOf } from '../../plugins/tool-registry/api.ts';
import { agentsOf } from '../../plugins/agents-inline/api.ts';
import type { RunningTransport } from '../../core/hook-types.ts';
import { HTTP_HANDLER_TRANSPORT } from '../../plugins/transport-http/api.ts';
import { VERSION } from '../../core/config/version.ts';
import { composedOf, type Kbctx } from './open-kbctx.ts';
import { lineLog } from '../../core/domain/log-line.ts';

export interface HttpHandlerOptions {
  /** Where server messages go (default: stderr). */
  log?: ((line: string) => void) | undefined;
}

export type KbctxHttpHandler = ((req: IncomingMessage, res: ServerResponse) => void) & {
  /** Ends open MCP streams. */
  close(): Promise<void>;
};

/**
 * Serves `/health`, `/tools/*`, `/agents/*` and `/mcp` at the root of whatever URL reaches it (strip a
 * mount prefix from `req.url` first). DNS-rebinding protection follows `[server] bind`: with the default
 * loopback bind only loopback Host headers (and `[server] allowed_hosts`) are accepted.
 */
export function createHttpHandler(kbctx: Kbctx, options: HttpHandlerOptions = {}): KbctxHttpHandler {
  const inner = composedOf(kbctx);
  const log = options.log ?? lineLog((text) => void process.stderr.write(text));
  const config = sectionOf<ExposureSettings & { readonly bind: string }>(inner.config, 'server');
  // The host server owns the socket, so only the token applies here ([server] auth_token_env); a missing one throws
  // now.
  if (config.authTokenEnv !== null) checkExposure(config, parseBind(config.bind).host, process.env);
  const kernel = inner.kernel;
  const hook = kernel.hooks.createTransport.get(HTTP_HANDLER_TRANSPORT);
  if (!hook?.isUsed())
    throw new KbctxError(
      'config_error',
      'createHttpHandler needs the plugin transport-http, which is not loaded (check plugins in the config)',
    );
  kernel.services.provide(
    serveService,
    {
      kbctx: inner,
      tools: toolsOf(kernel),
      agents: agentsOf(kernel),
      live: NO_LIVE_INDEX,
      version: VERSION,
      env: process.env,
      log,
      debug: undefined,
      isWorker: true,
    },
    'kbctx',
  );
  const started: Promise<RunningTransport> = hook
    .promise({ bind: config.bind, options: {} }, kernel.callContext())
    .then((running) => {
      if (!running?.handle) throw new KbctxError('config_error', 'the http-handler transport returned no handler');
      return running;
    });
  started.catch((error: unknown) => log(`createHttpHandler: ${(error as Error).message}`));
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    started.then(
      (running) => running.handle!(req, res),
      (error: unknown) => {
        const code = error instanceof KbctxError ? error.code : 'internal';
        res
          .writeHead(errorMapping(code).http, { 'content-type': 'application/json; charset=utf-8' })
          .end(JSON.stringify({ error: { code, message: (error as Error).message } }));
      },
    );
  };
  return Object.assign(handle, { close: async () => (await started.catch(() => undefined))?.close() });
}

/** A mounted handler runs no live index: no /sync routes, no index-change notifications. */
const NO_LIVE_INDEX = {
  control: undefined as never,
  statusJson: () => Promise.resolve({ connectors: [] }),
  onIndexChanged: () => {},
  attachWorker: () => {},
  close: () => Promise.resolve(),
};
