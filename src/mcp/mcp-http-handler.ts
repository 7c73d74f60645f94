// Mounts the SDK's web-standard MCP handler (createMcpHandler: 2026-07-28 per-request serving plus
// the stateless fallback for 2025-era clients) on plain node:http: Node request → fetch Request,
// fetch Response → Node response, streaming SSE bodies as they come. `subscriptions/listen` streams are
// counted against [server]'s caps (listen-limits.ts) while their response is open.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpSurface } from '../../core/hook-types.ts';
import { createMcpHandler } from '@modelcontextprotocol/server';
import type { AgentRegistry } from '../../core/app/agents.ts';
import type { ToolRegistry } from '../../core/app/tools.ts';
import type { DocumentLister } from '../../core/app/documents.ts';
import { isKbctxError } from '../../core/domain/errors.ts';
import { errorMapping } from '../../core/domain/error-table.ts';
import { createMcpServerFactory } from './create-mcp-server.ts';
import { listenClientKey, ListenStreams, type ListenLimits } from './listen-limits.ts';

export { listenLimitsOf } from './listen-limits.ts';
import { buildMcpCatalog } from './mcp-catalog.ts';

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
  /** `body`: the POST body, already read under the size limit by the HTTP surface. */
  handle(req: IncomingMessage, res: ServerResponse, origin: string, body: Buffer | undefined): Promise<void>;
  close(): Promise<void>;
  /** `notifications/resources/list_changed` to open 2026-07-28 `subscriptions/listen` streams (stateless 2025 clients have none). */
  resourcesChanged(): void;
}

export const MCP_PATH = '/mcp';

/** The MCP endpoint as the HTTP server mounts it (`/mcp`, behind auth), with its banner line. */
export function mcpHttpSurface(handler: McpHttpHandler): HttpSurface {
  return {
    endpoint: { path: MCP_PATH, handle: (req, res, origin, body) => handler.handle(req, res, origin, body) },
    describe: (base) => [`MCP endpoint: ${base}${MCP_PATH}`],
    close: () => handler.close(),
  };
}

export function createMcpHttpHandler(options: McpHttpOptions): McpHttpHandler {
  const catalog = buildMcpCatalog(options.tools, options.agents);
  const factory = createMcpServerFactory({ catalog, tools: options.tools, agents: options.agents, version: options.version, log: options.log, documents: options.documents, syncStatus: options.syncStatus });
  const listens = new ListenStreams(options.listenLimits);
  const handler = createMcpHandler(factory, {
    maxRequestBodySize: options.maxBodyBytes,
    maxSubscriptions: options.listenLimits.perServer, // a backstop: ListenStreams refuses first, with a clear answer
    onerror: (error) => options.log(`mcp: ${error.message}`),
  });
  return {
    async handle(req, res, origin, body) {
      const listen = listenRequestId(body);
      if (listen !== undefined) {
        let release: () => void;
        try {
          release = listens.admit(listenClientKey(req));
        } catch (error) {
          if (!isKbctxError(error)) throw error;
          const { http, mcp } = errorMapping(error.code);
          res.writeHead(http, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: listen.id, error: { code: mcp, message: error.message } }));
          return;
        }
        res.once('close', release);
      }
      const abort = new AbortController();
      res.once('close', () => abort.abort());
      const request = new Request(origin + (req.url ?? '/'), {
        method: req.method ?? 'GET',
        headers: toHeaders(req),
        ...(body && body.length > 0 ? { body } : {}),
        signal: abort.signal,
      });
      const response = await handler.fetch(request);
      await writeResponse(response, res);
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

function toHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return headers;
}

async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  if (!response.body) {
    res.writeHead(response.status, headers).end();
    return;
  }
  const streaming = (headers['content-type'] ?? '').startsWith('text/event-stream');
  if (!streaming) {
    const buffer = Buffer.from(await response.arrayBuffer());
    headers['content-length'] = String(buffer.length);
    res.writeHead(response.status, headers).end(buffer);
    return;
  }
  res.writeHead(response.status, headers);
  res.flushHeaders();
  const reader = response.body.getReader();
  res.once('close', () => void reader.cancel().catch(() => {}));
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    res.write(value);
  }
  res.end();
}
