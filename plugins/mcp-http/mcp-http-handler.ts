// Mounts the SDK's web-standard MCP handler (createMcpHandler: 2026-07-28 per-request serving plus
// the stateless fallback for 2025-era clients) on the listener's fastify instance at `/mcp`: the body
// arrives as bytes read under fastify's body limit (413 also while streaming), goes to the SDK as a
// fetch Request, and fastify sends the SDK's Response (SSE bodies streamed as they come).
// `subscriptions/listen` streams are counted against [server]'s caps (listen-limits.ts) while open.
import type { ServerResponse } from 'node:http';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { errorMapping, isKbctxError, loadMcpServer, type AgentRegistry, type DocumentLister, type HttpApp, type HttpReply, type HttpRequest, type HttpSurface, type ToolRegistry } from '../../core/index.ts';
import { listenClientKey, ListenStreams, type ListenLimits } from './listen-limits.ts';

export { listenLimitsOf } from './listen-limits.ts';

export interface McpHttpOptions {
  tools: ToolRegistry;
  agents: AgentRegistry;
  version: string;
  maxBodyBytes: number;
  /** Caps on open 2026-07-28 `subscriptions/listen` streams ([server].max_listen_streams…). */
  listenLimits: ListenLimits;
  log: (line: string) => void;
  /** Pages of indexed documents for MCP `resources/list`. */
  documents?: DocumentLister | undefined;
  syncStatus?: (() => Promise<unknown>) | undefined;
}

export interface McpHttpHandler {
  /** Registers `/mcp` (every method: the SDK answers the ones it does not serve). */
  register(app: HttpApp): void;
  close(): Promise<void>;
  /** `notifications/resources/list_changed` to open 2026-07-28 `subscriptions/listen` streams (stateless 2025 clients have none). */
  resourcesChanged(): void;
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

export async function createMcpHttpHandler(options: McpHttpOptions): Promise<McpHttpHandler> {
  const { buildMcpCatalog, createMcpServerFactory } = await loadMcpServer();
  const catalog = buildMcpCatalog(options.tools, options.agents);
  const factory = createMcpServerFactory({ catalog, tools: options.tools, agents: options.agents, version: options.version, log: options.log, documents: options.documents, syncStatus: options.syncStatus });
  const listens = new ListenStreams(options.listenLimits);
  const handler = createMcpHandler(factory, {
    maxRequestBodySize: options.maxBodyBytes,
    maxSubscriptions: options.listenLimits.perServer, // a backstop: ListenStreams refuses first, with a clear answer
    onerror: (error) => options.log(`mcp: ${error.message}`),
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
        return Response.json({ jsonrpc: '2.0', id: listen.id, error: { code: mcp, message: error.message } }, { status: http });
      }
      response.once('close', release);
    }
    // The Host guard has parsed (and refused a malformed) Host already, so the URL is well-formed.
    return handler.fetch(
      new Request(`http://${request.headers.host ?? 'localhost'}${request.url}`, {
        method: request.method,
        headers: toHeaders(request.raw.rawHeaders),
        ...(body && body.length > 0 ? { body } : {}),
        signal: request.clientGone,
      }),
    );
  };
  return {
    register(app) {
      // The SDK reads the bytes itself (its own JSON parse errors and content-type answers).
      app.removeAllContentTypeParsers();
      app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, bytes, done) => done(null, bytes));
      app.all(MCP_PATH, async (request, reply) => send(reply, await serve(request, reply.raw, request.body as Buffer | undefined)));
    },
    close: () => handler.close(),
    resourcesChanged: () => handler.notify.resourcesChanged(),
  };
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
  const listen = messages.find((m) => (m as { method?: unknown } | null)?.method === 'subscriptions/listen') as { id?: unknown } | undefined;
  return listen && { id: listen.id ?? null };
}

/**
 * The SDK's Response through fastify: an SSE body streams as it comes; any other body (a JSON answer,
 * an error) is read whole and sent with a Content-Length in one write, as fastify would send a
 * Response's body as a chunked stream.
 */
async function send(reply: HttpReply, response: Response): Promise<HttpReply> {
  if (response.body === null || response.headers.get('content-type')?.startsWith('text/event-stream')) return reply.send(response);
  void reply.code(response.status);
  for (const [name, value] of response.headers) void reply.header(name, value);
  return reply.send(Buffer.from(await response.arrayBuffer()));
}

function toHeaders(raw: readonly string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return headers;
}
