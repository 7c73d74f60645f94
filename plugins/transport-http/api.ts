// transport-http's contract entry: the hook it owns (`httpRoutes`, webpack's `getCompilationHooks`
// pattern) and the types of the HTTP server's surfaces. Other plugins (rest, mcp-http, web, live-index,
// third-party ones) import this file only: types, the extension point, two functions; fastify is
// imported for types alone (erased), so importing it loads nothing but tapable.
import { AsyncSeriesHook } from 'tapable';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type * as BindAddressModule from './bind-address.ts';
import type * as ExposureModule from './exposure-policy.ts';
import {
  defineExtensionPoint,
  KbctxError,
  mayAdminister,
  type AccessScope,
  type Collector,
  type PluginContext,
  type PluginKernel,
  type RequestOrigin,
  type Surface,
} from '../../core/api/plugin.ts';
import type { ServerConfig } from './server-section.ts';

/**
 * The createTransport key of the HTTP server as a mountable handler (the library's createHttpHandler); not a `kbctx
 * serve` transport.
 */
export const HTTP_HANDLER_TRANSPORT = 'http-handler';

/** One request to an HTTP JSON route. */
export interface HttpRouteRequest {
  params: Record<string, string>;
  /** Parsed JSON body (only read for POST routes). */
  body: unknown;
  signal: AbortSignal;
  /** The peer's IP address (loopback checks). */
  remoteAddress?: string | undefined;
  /** The request's Content-Type header, as sent (absent: none). */
  contentType?: string | undefined;
}

/** A JSON route of the HTTP server: behind auth; what `handle` resolves to is sent as JSON 200. */
export interface HttpRoute {
  method: 'GET' | 'POST';
  /** Segments; `:name` captures one path segment. */
  path: string;
  handle(req: HttpRouteRequest): Promise<unknown>;
}

/**
 * The fastify instance of one HTTP listener as a plugin sees it (the `httpRoutes` hook): an
 * encapsulated scope of its own, where the Host guard (DNS rebinding, malformed Host → 400), CORS,
 * the body limit, the JSON body parser, the error handler (`{"error": {"code", "message"}}` from the
 * error table) and Bearer auth already apply. Routes added here need nothing else.
 */
export type HttpApp = FastifyInstance;

declare module 'fastify' {
  interface FastifyRequest {
    /** Aborted when the client goes away before its answer (pass it to tool and agent calls). Set by transport-http. */
    clientGone: AbortSignal;
    /** The name of the token the request authenticated with (`default`: `[server] auth_token_env`); null: no auth. */
    tokenName: string | null;
    /** What that token may see and do (`[server.tokens.<name>]`, ADR 0223); undefined: no auth, everything. */
    accessScope: AccessScope | undefined;
  }
}
export type HttpRequest = FastifyRequest;
export type HttpReply = FastifyReply;

/**
 * What one plugin adds to the HTTP server of `kbctx serve mcp` (the `httpRoutes` hook). Called once
 * per listener (each `--workers` process, and the library's createHttpHandler, has its own).
 */
export interface HttpSurface {
  /** Registers routes on the listener's fastify instance, in this plugin's own scope, behind auth. */
  register?(app: HttpApp): void | Promise<void>;
  /**
   * Routes answered without the token (the web page's files, so the page can ask for it); the Host guard still applies.
   */
  registerPublic?(app: HttpApp): void | Promise<void>;
  /**
   * Told of every answered request of the listener (any route, 404s and auth failures included), after the answer is
   * sent: observation only (the metrics plugin); an error it throws is logged. transport-http adds its root
   * `onResponse` hook only when a surface has this, so no listener pays for it otherwise.
   */
  onResponse?(request: HttpRequest, reply: HttpReply): void;
  /** Banner lines printed before the address (one per REST route). */
  listing?(): string[];
  /** Banner lines printed after the address ("MCP endpoint: <base>/mcp"). */
  describe?(base: string): string[];
  close?(): Promise<void>;
}

/**
 * transport-http's hooks. `httpRoutes` (async series, a collector and the tapping plugin's `ctx`):
 * called once per listener as it starts, in plugin order (the banner's and the route table's order).
 */
export const httpHooks = defineExtensionPoint({
  id: 'transport-http',
  hooks: () => ({
    httpRoutes: new AsyncSeriesHook<[Collector<HttpSurface>, PluginContext]>(['surfaces', 'ctx'], 'httpRoutes'),
  }),
  tapTimeoutMs: { httpRoutes: 30_000 },
});

export type HttpHooks = ReturnType<typeof httpHooks.hooks>;

/** transport-http's hooks in this kernel: `getHttpHooks(kernel).httpRoutes.tapPromise('my-plugin', …)`. */
export const getHttpHooks = (kernel: Pick<PluginKernel, 'hooksOf'>): HttpHooks => kernel.hooksOf(httpHooks);

// Every POST must say it is JSON (ADR 0140). An HTML form or a "simple" cross-origin fetch (no body, or
// text/plain, form or multipart bodies) is sent without a CORS preflight, so a page on any loopback
// origin could call a tool with side effects, start an agent or a sync; a JSON content type needs a
// preflight, which the CORS policy answers. transport-http checks every POST route; a route a plugin
// serves elsewhere may call it itself.
const JSON_TYPE = /^application\/(?:[^;\s]+\+)?json\s*(?:;|$)/i;

/** Throws 415 unless a POST carries `Content-Type: application/json` (or `application/<x>+json`). */
export function requireJsonPost(method: string, url: string, contentType: string | undefined): void {
  if (method !== 'POST' || (contentType !== undefined && JSON_TYPE.test(contentType))) return;
  const got = contentType === undefined ? 'none' : JSON.stringify(contentType.slice(0, 100));
  throw new KbctxError(
    'unsupported_media_type',
    `POST ${url.split('?', 1)[0]!.slice(0, 200)} needs Content-Type: application/json (a body such as {}), got ` +
      `${got}: a web page cannot send that without a CORS preflight`,
  );
}

/** `[server] bind` parsing and the exposure policy, as `loadServerPolicy()` hands them. */
export interface ServerPolicy {
  parseBind: typeof BindAddressModule.parseBind;
  isLoopbackHost: typeof BindAddressModule.isLoopbackHost;
  toHttpUrl: typeof BindAddressModule.toHttpUrl;
  checkExposure: typeof ExposureModule.checkExposure;
}

/**
 * The server policy (a non-loopback bind needs a token or `allow_unauthenticated`), imported when asked: the
 * serve command checks `[server]` before it opens the index, and `kbctx search` loads neither file.
 */
export async function loadServerPolicy(): Promise<ServerPolicy> {
  const [{ parseBind, isLoopbackHost, toHttpUrl }, { checkExposure }] = await Promise.all([
    import('./bind-address.ts'),
    import('./exposure-policy.ts'),
  ]);
  return { parseBind, isLoopbackHost, toHttpUrl, checkExposure };
}
export type { BindAddress } from './bind-address.ts';
export type { Exposure } from './exposure-policy.ts';
// `[server]`: its type and accessor (the section is this plugin's, ADR 0164/0192).
export { serverConfigOf, type ServerConfig } from './server-section.ts';

/**
 * Who sent a request, for `withRequestOrigin` (the query log, the data scope): the surface, the token's name and
 * its scope (ADR 0223).
 */
export const requestOriginOf = (request: HttpRequest, surface: Surface): RequestOrigin => ({
  surface,
  token: request.tokenName,
  scope: request.accessScope,
});

/**
 * Throws 403 `forbidden` naming the token unless it has the `admin` scope (ADR 0223): an `onRequest` hook for the
 * routes that change or expose the server (`/sync`, `/metrics`). A server without auth lets everyone through.
 */
export function requireAdmin(request: HttpRequest, _reply: unknown, done: () => void): void {
  if (!mayAdminister(request.accessScope)) {
    throw new KbctxError(
      'forbidden',
      `token '${request.tokenName ?? ''}' may not use ${request.method} ` +
        `${request.url.split('?', 1)[0]!.slice(0, 200)}: it needs the admin scope (admin = true in ` +
        `[server.tokens.${request.tokenName ?? ''}])`,
    );
  }
  done();
}

/** True when the server needs a token (`auth_token_env` or any `[server.tokens.<name>]`). */
export const tokenRequired = (config: ServerConfig): boolean =>
  config.authTokenEnv !== null || config.tokens.length > 0;
