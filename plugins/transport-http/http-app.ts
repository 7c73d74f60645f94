// One fastify instance per HTTP listener: the Host guard (DNS rebinding; a malformed Host is 400), CORS
// (@fastify/cors), Bearer auth on every route but GET /health and the public files (with each token's fairness limits,
// ADR 0224), the JSON body parser under [server].max_body_bytes, the time-outs, the one error handler and the 404/405
// answers; then each plugin's surface (`httpRoutes`) in a scope of its own.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import cors from '@fastify/cors';
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import FindMyWay from 'find-my-way';
import { KbctxError, badRequest, errorMapping, isKbctxError } from '../../core/index.ts';
import { isLoopbackHost } from './bind-address.ts';
import { requireJsonPost, type HttpApp, type HttpSurface } from './api.ts';
import { BEARER_CHALLENGE, createBearerAuth } from './bearer-auth.ts';
import { createHostGuard } from './host-guard.ts';
import { createLimitedServer } from './limited-server.ts';
import { normaliseRequestTarget } from './request-target.ts';
import type { ServerConfig } from './server-section.ts';
import { TokenLimiter } from './token-limits.ts';
import type { ResolvedToken } from './token-set.ts';

export type Log = (line: string) => void;

export interface HttpAppOptions {
  version: string;
  config: ServerConfig;
  /** The host the server binds; DNS-rebinding protection applies when it is a loopback address. */
  bindHost: string;
  /** What the plugins serve (the `httpRoutes` hook). */
  surfaces: readonly HttpSurface[];
  /** The tokens one of which every route but GET /health and public files needs; empty/absent: no auth. */
  tokens?: readonly ResolvedToken[] | undefined;
  log: Log;
  /** Lines only worth showing when debugging (clients that went away); dropped when absent. */
  debug?: Log | undefined;
}

export interface HttpListener {
  app: HttpApp;
  /** The node:http server fastify runs on (not listening until `app.listen`). */
  server: Server;
  /** The node:http listener (for the library's createHttpHandler, which mounts it elsewhere). */
  handler: (req: IncomingMessage, res: ServerResponse) => void;
}

const CORS_EXPOSE_HEADERS = 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate';
const METHODS = ['GET', 'POST', 'DELETE', 'PUT', 'PATCH'] as const;

export async function buildHttpApp(options: HttpAppOptions): Promise<HttpListener> {
  const { config, log } = options;
  const debug = options.debug ?? ((): void => {});
  let handler!: (req: IncomingMessage, res: ServerResponse) => void;
  const app = Fastify({
    logger: false,
    bodyLimit: config.maxBodyBytes,
    // Every time-out is set on the server by createLimitedServer: fastify ignores its own for a factory's server.
    serverFactory: (h) => {
      handler = h;
      return createLimitedServer(config, h);
    },
    return503OnClosing: false,
  });

  // First, so every route (the CORS plugin's `OPTIONS *` included) answers its errors through it.
  app.setErrorHandler(async (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (clientGone(error, request, reply)) {
      debug(`client went away: ${request.method} ${request.url} (${error.message})`);
      reply.raw.destroy();
      return reply;
    }
    const kbctxError = toKbctxError(error, config.maxBodyBytes);
    if (kbctxError?.code === 'unauthorized') void reply.header('www-authenticate', BEARER_CHALLENGE);
    if (kbctxError?.code === 'rate_limited')
      void reply.header('retry-after', String(kbctxError.details?.['retry_after'] ?? 1));
    if (kbctxError?.code === 'method_not_allowed')
      void reply.header('allow', String(kbctxError.details?.['allow'] ?? ''));
    // The rest of an oversized body is not read: close the connection after answering.
    if (kbctxError?.code === 'payload_too_large') void reply.header('connection', 'close');
    const [status, body] = errorBody(kbctxError ?? error, log);
    return reply.code(status).type('application/json; charset=utf-8').send(body);
  });

  // request.clientGone: aborted when the connection closes before the answer is sent (fastify's own
  // request.signal also fires once the request body has been read, too early for a tool call). A
  // response that finished is not aborted: every request would pay for an AbortError and its event.
  // One callback-style hook with the Host guard: an async hook per concern costs a promise and a
  // hook-runner turn each, on every request.
  app.decorateRequest('clientGone', null as unknown as AbortSignal);
  // Set by the auth hook below to the token the request carries (ADR 0223); null/undefined without auth.
  app.decorateRequest('tokenName', null);
  app.decorateRequest('accessScope', undefined);
  const guard = createHostGuard({
    enabled: isLoopbackHost(options.bindHost),
    allowedHosts: config.allowedHosts,
    corsOrigins: config.corsOrigins,
  });
  app.addHook('onRequest', (request, reply, done) => {
    const abort = new AbortController();
    const response = reply.raw;
    response.once('close', () => {
      if (!response.writableFinished) abort.abort();
    });
    request.clientGone = abort.signal;
    // Both throw forbidden/bad_request: fastify answers it through the error handler.
    normaliseRequestTarget(request.raw); // a duplicate Host; an absolute-form target's authority becomes the Host
    guard(request.headers);
    // A POST to a route that exists (an unknown path or method stays 404/405). `is404`, not
    // `routeOptions.url`: fastify builds routeOptions as a new object on every read (per request).
    if (!request.is404) requireJsonPost(request.method, request.url, request.headers['content-type']);
    done();
  });
  if (config.corsEnabled) {
    const any = config.corsOrigins.includes('*');
    await app.register(cors, {
      origin: any ? '*' : config.corsOrigins.map((o) => o.replace(/\/$/, '')),
      methods: 'GET, POST, DELETE, OPTIONS',
      exposedHeaders: CORS_EXPOSE_HEADERS,
      maxAge: 86_400,
      // allowedHeaders unset: a preflight's Access-Control-Request-Headers are echoed.
    });
  }

  // Observers (HttpSurface.onResponse) see every answered request; no hook at all when none asks.
  const observers = options.surfaces.filter((s) => s.onResponse !== undefined);
  if (observers.length > 0) {
    app.addHook('onResponse', (request, reply, done) => {
      for (const surface of observers) {
        try {
          surface.onResponse!(request, reply);
        } catch (error) {
          log(`warning: an onResponse observer failed: ${(error as Error).message}`);
        }
      }
      done();
    });
  }

  // Bearer auth before routing-level work, on every route (present and future, 404s included) but the public ones;
  // then the token's limits, before the body is read (a refused request costs no parsing).
  const publicRoutes = new Set<string>();
  const tokens = options.tokens ?? [];
  if (tokens.length > 0) {
    const auth = createBearerAuth(tokens);
    const limiter = TokenLimiter.needed(tokens) ? new TokenLimiter() : null;
    app.addHook('onRequest', (request, reply, done) => {
      if (publicRoutes.has(`${request.method} ${request.routeOptions.url ?? ''}`)) return done();
      const token = auth(request.raw);
      request.tokenName = token.name;
      request.accessScope = token.scope;
      if (!limiter) return done();
      let release;
      try {
        release = limiter.admit(token);
      } catch (error) {
        // Over a limit: the 429 is held a moment (token-limits.ts), so an eager retry loop costs little.
        limiter.holdRefusal(token.name, () => done(error as Error));
        return;
      }
      reply.raw.once('close', release);
      done();
    });
  }

  // 405 with Allow for a known path asked with another method: the routes are mirrored into a router of their own.
  const methods = FindMyWay();
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (!METHODS.includes(method as (typeof METHODS)[number])) continue;
      try {
        methods.on(method as 'GET', route.url, () => {});
      } catch {
        // the same method and path twice: already mirrored
      }
    }
  });
  app.setNotFoundHandler(async (request) => {
    const pathname = request.url.split('?', 1)[0]!;
    const allowed = METHODS.filter((m) => methods.find(m, pathname) !== null);
    if (allowed.length > 0) {
      throw new KbctxError(
        'method_not_allowed',
        `${request.method} is not allowed on ${pathname}; use ${allowed.join(' or ')}`,
        { details: { allow: allowed.join(', ') } },
      );
    }
    throw new KbctxError(
      'not_found',
      `no route for ${request.method} ${pathname}; see GET /tools/list and the README for the API`,
    );
  });
  // JSON bodies (an empty body is `{}`; anything else non-empty is 415). JSON.parse, not a recursive
  // scanner, so absurd nesting is the tools' 400 (param-bounds.ts), never a stack overflow.
  app.removeAllContentTypeParsers();
  const parseJson = (
    _req: unknown,
    text: string | Buffer,
    done: (error: Error | null, body?: unknown) => void,
  ): void => {
    if (text === '') return done(null, {});
    try {
      done(null, JSON.parse(text as string));
    } catch (error) {
      done(badRequest(`malformed JSON body: ${(error as Error).message}`), undefined);
    }
  };
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJson);
  app.addContentTypeParser(/^application\/[^;]+\+json$/, { parseAs: 'string' }, parseJson);
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (req, bytes, done) => {
    if ((bytes as Buffer).length === 0) return done(null, {});
    done(
      new KbctxError(
        'unsupported_media_type',
        `request bodies must be JSON (Content-Type: application/json), got ` +
          `${req.headers['content-type'] ?? 'no Content-Type'}`,
      ),
      undefined,
    );
  });

  // GET /health is the server's own: auth-exempt, and there whichever plugins are loaded.
  app.get('/health', async () => ({ status: 'ok', version: options.version }));
  publicRoutes.add('GET /health').add('HEAD /health');

  for (const surface of options.surfaces) {
    if (surface.registerPublic) {
      await app.register(async (scope) => {
        scope.addHook('onRoute', (route) => {
          for (const method of [route.method].flat()) publicRoutes.add(`${method} ${route.url}`);
        });
        await surface.registerPublic!(scope);
      });
    }
    if (surface.register) await app.register(async (scope) => surface.register!(scope));
  }
  await app.ready();
  return { app, server: app.server, handler };
}

/** fastify's own failures (body limit, content type, bad JSON) as KbctxErrors; undefined for a fault of ours. */
function toKbctxError(error: unknown, maxBodyBytes: number): KbctxError | undefined {
  if (isKbctxError(error)) return error;
  const e = error as FastifyError;
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new KbctxError(
        'payload_too_large',
        `request body is larger than ${maxBodyBytes} bytes ([server].max_body_bytes)`,
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new KbctxError(
        'unsupported_media_type',
        `request bodies must be JSON (Content-Type: application/json): ${e.message}`,
      );
    default:
      if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) return badRequest(e.message);
      return undefined;
  }
}

/**
 * The status and `{error: {code, message}}` body (SPEC §4); anything not a KbctxError is a 500 with an id, stack to
 * the log.
 */
export function errorBody(
  error: unknown,
  log: Log,
): [number, { error: { code: string; message: string; id?: string } }] {
  if (isKbctxError(error))
    return [errorMapping(error.code).http, { error: { code: error.code, message: error.message } }];
  const id = randomUUID().slice(0, 8);
  log(`internal error ${id}: ${(error as Error)?.stack ?? String(error)}`);
  return [
    errorMapping('internal').http,
    { error: { code: 'internal', message: `internal error ${id}; see the server log`, id } },
  ];
}

const GONE_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ERR_STREAM_PREMATURE_CLOSE',
  'ERR_STREAM_DESTROYED',
  'ABORT_ERR',
  'FST_ERR_CTP_BODY_TOO_LARGE_ABORTED',
]);

/** The client closed the connection while its request was being read or answered: not a fault of ours. */
function clientGone(error: FastifyError, request: FastifyRequest, reply: FastifyReply): boolean {
  const aborted = error.message === 'aborted' || error.name === 'AbortError' || GONE_CODES.has(error.code);
  return (request.raw.destroyed || reply.raw.destroyed) && (aborted || request.raw.aborted || !request.raw.complete);
}
