// Mounts the SDK's web-standard MCP handler (createMcpHandler: 2026-07-28 per-request serving plus
// the stateless fallback for 2025-era clients) on the listener's fastify instance at `/mcp`: the body
// arrives as bytes read under fastify's body limit (413 also while streaming), goes to the SDK as a
// fetch Request, and the SDK's Response is written to the hijacked reply (SSE bodies streamed as they come).
// `subscriptions/listen` streams are counted against [server]'s caps (listen-limits.ts) while open; the
// requests the SDK rejects are logged in summary (summarised-log.ts).
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { errorMapping, isKbctxError, withRequestOrigin } from '../../core/index.ts';
import type { McpServerFactory } from '../mcp-server/api.ts';
import {
  requestOriginOf,
  type HttpApp,
  type HttpReply,
  type HttpRequest,
  type HttpSurface,
} from '../transport-http/api.ts';
import type { McpExchange } from './api.ts';
import { listenClientKey, ListenStreams, type ListenLimits } from './listen-limits.ts';
import { createSummarisedLog } from './summarised-log.ts';
import { ScopedEventBus } from './scoped-event-bus.ts';

export { listenLimitsOf } from './listen-limits.ts';

export interface McpHttpOptions {
  /** The SDK servers to answer with (mcp-server's `createFactory`). */
  server: McpServerFactory;
  maxBodyBytes: number;
  /** Caps on open 2026-07-28 `subscriptions/listen` streams ([server].max_listen_streams…). */
  listenLimits: ListenLimits;
  log: (line: string) => void;
  /** Told when each exchange opens and closes (mcp-http's `exchangeOpened`/`exchangeClosed` hooks); absent: nobody. */
  exchanges?: ExchangeObserver | undefined;
}

export interface ExchangeObserver {
  opened(exchange: McpExchange): void;
  closed(exchange: McpExchange): void;
}

export interface McpHttpHandler {
  /** Registers `/mcp` (every method: the SDK answers the ones it does not serve). */
  register(app: HttpApp): void;
  close(): Promise<void>;
  /**
   * `notifications/resources/list_changed` to open 2026-07-28 `subscriptions/listen` streams (stateless 2025 clients
   * have none) whose token's scope holds `connector`, the source a sync changed (ADR 0225).
   */
  resourcesChanged(connector: string): void;
}

export const MCP_PATH = '/mcp';

/** The MCP endpoint as the HTTP server mounts it (`/mcp`, behind auth), with its banner line. */
export function mcpHttpSurface(handler: McpHttpHandler): HttpSurface {
  return {
    register: (app) => handler.register(app),
    describe: (base) => [`MCP endpoint: ${base}${MCP_PATH}`],
    close: () => handler.close(),
  };
}

export function createMcpHttpHandler(options: McpHttpOptions): McpHttpHandler {
  const listens = new ListenStreams(options.listenLimits);
  // The SDK reports each request it rejects (a bad body, a wrong content type): one line per kind per window.
  const errors = createSummarisedLog(options.log, { windowMs: REJECTION_WINDOW_MS, maxKinds: 32, prefix: 'mcp: ' });
  const bus = new ScopedEventBus((error) => errors.write('listener', `mcp: ${error.message}`));
  const handler = createMcpHandler(options.server, {
    bus,
    maxRequestBodySize: options.maxBodyBytes,
    maxSubscriptions: options.listenLimits.perServer, // a backstop: ListenStreams refuses first, with a clear answer
    onerror: (error) => errors.write(errorKind(error.message), `mcp: ${error.message}`),
  });
  const serve = async (request: HttpRequest, response: ServerResponse, body: Buffer | undefined): Promise<Response> => {
    const listen = listenRequestId(body);
    if (listen !== undefined) {
      let release: () => void;
      try {
        release = listens.admit(listenClientKey(request.raw));
      } catch (error) {
        if (!isKbctxError(error)) throw error;
        const { http, mcp } = errorMapping(error.code);
        return Response.json(
          { jsonrpc: '2.0', id: listen.id, error: { code: mcp, message: error.message } },
          { status: http },
        );
      }
      response.once('close', release);
    }
    const observer = options.exchanges;
    if (observer) {
      const exchange: McpExchange = { kind: listen === undefined ? 'request' : 'listen', token: request.tokenName };
      observer.opened(exchange);
      response.once('close', () => observer.closed(exchange));
    }
    // The Host guard has parsed (and refused a malformed) Host already, so the URL is well-formed.
    // The token's name and scope reach the handlers (tools/list) and a search the call makes (the query log, the
    // data scope), whatever the SDK awaits in between.
    return withRequestOrigin(requestOriginOf(request, 'mcp'), () =>
      handler.fetch(
        new Request(`http://${request.headers.host ?? 'localhost'}${request.url}`, {
          method: request.method,
          headers: toHeaders(request.raw.rawHeaders),
          ...(body && body.length > 0 ? { body } : {}),
          signal: request.clientGone,
        }),
      ),
    );
  };
  return {
    register(app) {
      // The SDK reads the bytes itself (its own JSON parse errors and content-type answers).
      app.removeAllContentTypeParsers();
      app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, bytes, done) => done(null, bytes));
      app.all(MCP_PATH, async (request, reply) =>
        send(reply, await serve(request, reply.raw, request.body as Buffer | undefined)),
      );
    },
    close: async () => {
      errors.close();
      await handler.close();
    },
    resourcesChanged: (connector) => bus.resourcesChanged(connector),
  };
}

const REJECTION_WINDOW_MS = 10_000;

/**
 * What groups SDK errors for the summary: the text before its first colon (`Unsupported Media Type`, `Rejected inbound
 * request (invalid-json-rpc-body)`), at most 80 characters.
 */
function errorKind(message: string): string {
  const colon = message.indexOf(':');
  return (colon === -1 ? message : message.slice(0, colon)).slice(0, 80);
}

/** The id of a `subscriptions/listen` request (alone or in a batch); undefined for any other body. */
function listenRequestId(body: Buffer | undefined): { id: unknown } | undefined {
  if (!body?.includes('"subscriptions/listen"')) return undefined; // cheap: most bodies are not parsed here
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined; // the SDK answers the parse error
  }
  const messages: unknown[] = Array.isArray(parsed) ? parsed : [parsed];
  const listen = messages.find((m) => (m as { method?: unknown } | null)?.method === 'subscriptions/listen') as
    | { id?: unknown }
    | undefined;
  return listen && { id: listen.id ?? null };
}

/**
 * The SDK's Response written straight to the socket (ADR 0132): the reply is hijacked, so fastify's
 * send path (and its onSend hooks, which no plugin taps on this listener) is skipped; the headers our
 * hooks set on the reply (CORS) go out with the SDK's. An SSE body streams as it comes; any other body
 * (a JSON answer, an error) is read whole and sent with a Content-Length in one write. Whatever fails
 * before the first byte (reading the body, its first event) still answers through the error handler.
 */
async function send(reply: HttpReply, response: Response): Promise<void> {
  const sse = response.body !== null && response.headers.get('content-type')?.startsWith('text/event-stream') === true;
  const reader = sse ? response.body!.getReader() : undefined;
  const first = reader ? await reader.read() : undefined;
  const body = sse || response.body === null ? undefined : Buffer.from(await response.arrayBuffer());
  reply.hijack();
  const res = reply.raw;
  const headers = reply.getHeaders() as OutgoingHttpHeaders;
  for (const [name, value] of response.headers) headers[name] = value;
  const status = response.status;
  const head = reply.request.raw.method === 'HEAD';
  if (status === 204) {
    delete headers['content-length'];
    delete headers['content-type'];
    res.writeHead(status, headers).end();
  } else if (reader) {
    res.writeHead(status, headers);
    void stream(res, reader, first!);
  } else {
    // As fastify's send did: a body's length (kept on HEAD when given), an empty answer's 0.
    if (body === undefined) {
      if (status !== 304 && !head) headers['content-length'] = '0';
    } else {
      if (body.length > 0) headers['content-type'] ??= 'application/octet-stream';
      if (!head || headers['content-length'] === undefined) headers['content-length'] = String(body.length);
    }
    res.writeHead(status, headers).end(body);
  }
}

type Chunk = Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>>;

/**
 * The rest of an SSE body, as fastify streamed it: backpressure honoured, the source cancelled when the client goes.
 */
async function stream(
  res: ServerResponse,
  reader: ReadableStreamDefaultReader<Uint8Array>,
  first: Chunk,
): Promise<void> {
  let open = true;
  res.once('close', () => {
    if (open) reader.cancel().catch(() => {});
  });
  try {
    for (let chunk = first; !chunk.done; chunk = await reader.read()) {
      if (res.destroyed) return;
      if (!res.write(chunk.value)) await drained(res);
    }
    open = false;
    res.end();
  } catch {
    open = false;
    res.destroy(); // a broken stream after its head: nothing to answer with but the closed connection
  }
}

/** The socket took the buffered bytes, or the client went. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.once('drain', done).once('close', done);
  });
}

function toHeaders(raw: readonly string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return headers;
}
