// The MCP server factory: a low-level SDK `Server` whose handlers close over the prebuilt catalog
// and the registries. The SDK calls it per HTTP request (stateless legacy and 2026-07-28 eras) or
// per stdio connection; construction only attaches handlers, so a request pays no start-up cost.
import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type CallToolResult,
  type ContentBlock,
  type Server,
} from '@modelcontextprotocol/server';
import {
  errorMapping,
  isKbctxError,
  mayAdminister,
  requestOrigin,
  type RequestOrigin,
  type ToolClient,
} from '../../core/index.ts';
import { toolAllowed } from '../tool-registry/api.ts';
import type { DocumentLister } from './document-pages.ts';
import { KBCTX_INSTRUCTIONS } from './instructions.ts';
import { legacyResourceNotFound } from './legacy-not-found.ts';
import { DOCUMENT_MIME_TYPE, DOCUMENT_URI_PREFIX, type McpCatalog } from './mcp-catalog.ts';
import { ParamCheckedServer } from './param-checked-server.ts';
import type { PluginResources } from './plugin-resources.ts';
import { toolClientOf } from './tool-client.ts';
import type { AgentRegistry } from '../agents-inline/api.ts';
import type { ToolRegistry } from '../tool-registry/api.ts';

export interface McpServerDeps {
  catalog: McpCatalog;
  tools: ToolRegistry;
  agents: AgentRegistry;
  version: string;
  log: (line: string) => void;
  /** Pages of indexed documents for `resources/list` (absent: an empty list). */
  documents?: DocumentLister | undefined;
  /** The live index's status as JSON (the read-only resource kbctx://sync/status); absent: no such resource. */
  syncStatus?: (() => Promise<unknown>) | undefined;
  /** Resources and templates plugins added (the `resources` hook). */
  resources?: PluginResources | undefined;
}

export const SYNC_STATUS_URI = 'kbctx://sync/status';
const SYNC_STATUS_RESOURCE = {
  uri: SYNC_STATUS_URI,
  name: 'Sync status',
  description:
    'Per connector: state (idle | running | failed), last run times and counts, last error, next run (read-only)',
  mimeType: 'application/json',
};

// logging: the SDK answers logging/setLevel; completions: no argument has suggestions yet (empty lists).
// resources.listChanged: sent after a background sync changed documents (docs/sync.md says to whom).
const CAPABILITIES = {
  tools: { listChanged: false },
  prompts: { listChanged: false },
  resources: { listChanged: true },
  logging: {},
  completions: {},
};
/** MCP over HTTP or stdio; the HTTP transport adds the token's name around the request (mcp-http-handler.ts). */
const MCP_ORIGIN: RequestOrigin = { surface: 'mcp' };

const NO_COMPLETIONS = { completion: { values: [], hasMore: false } };

export function createMcpServerFactory(deps: McpServerDeps): () => Server {
  const { catalog, tools, agents } = deps;
  const info = { name: 'kbctx', version: deps.version };
  const promptNames = new Set(catalog.prompts.map((p) => p.name));

  const callTool = async (
    name: string,
    args: unknown,
    signal: AbortSignal,
    client: ToolClient,
  ): Promise<CallToolResult> => {
    // SEP-1303: unknown tools are protocol errors; bad arguments and failures are tool results the model can read.
    // A tool outside the token's `tools` scope is an unknown tool (ADR 0223).
    if (!tools.has(name, requestOrigin().scope))
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
    try {
      const value = await tools.call(name, args ?? {}, { signal, client, origin: MCP_ORIGIN });
      if (tools.get(name).content) return value as CallToolResult; // the plugin built the MCP result itself
      const structured = value !== null && typeof value === 'object' && !Array.isArray(value);
      return {
        content: [{ type: 'text', text: JSON.stringify(value) }],
        ...(structured ? { structuredContent: value as Record<string, unknown> } : {}),
      };
    } catch (error) {
      return { content: [{ type: 'text', text: errorText(error, deps.log) }], isError: true };
    }
  };

  return () => {
    // Handlers are async or cannot throw: ParamCheckedServer reads a synchronous throw as the SDK's param validation.
    const server = new ParamCheckedServer(info, { capabilities: CAPABILITIES, instructions: KBCTX_INSTRUCTIONS });
    const legacy = legacyResourceNotFound(server);
    // The token's `tools` scope (the HTTP transport's request origin, ADR 0223) hides tools and agents; stdio: none.
    server.setRequestHandler('tools/list', () => ({ tools: visible(catalog.tools) }));
    server.setRequestHandler('tools/call', async (request, ctx) => {
      const { name } = request.params;
      const result = await callTool(name, request.params.arguments, ctx.mcpReq.signal, toolClientOf(ctx));
      return server.projectCallToolResult(result, catalog.outputSchemas.get(name));
    });
    server.setRequestHandler('prompts/list', () => ({ prompts: visible(catalog.prompts) }));
    server.setRequestHandler('prompts/get', async (request, ctx) => {
      const { name } = request.params;
      if (!promptNames.has(name) || !toolAllowed(requestOrigin().scope, name))
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${name}`);
      const prompt = await mcpErrors(
        () => agents.resolve(name, request.params.arguments ?? {}, { signal: ctx.mcpReq.signal }),
        deps.log,
      );
      const description = catalog.prompts.find((p) => p.name === name)?.description ?? '';
      // MCP prompts have no system role: the system prompt travels as the first (user) message, if any.
      const system = prompt.system === '' ? [] : [{ role: 'user' as const, content: prompt.system }];
      const messages = [...system, ...prompt.messages].map((m) => ({
        role: m.role,
        // A content block (checked when the agent returned it) goes out as the agent built it.
        content:
          typeof m.content === 'string'
            ? { type: 'text' as const, text: m.content }
            : (m.content as unknown as ContentBlock),
      }));
      return { description, messages };
    });
    server.setRequestHandler('completion/complete', () => NO_COMPLETIONS);
    server.setRequestHandler('resources/list', async (request) => {
      const first = request.params?.cursor
        ? []
        : [
            ...(deps.syncStatus && mayAdminister(requestOrigin().scope) ? [SYNC_STATUS_RESOURCE] : []),
            ...(deps.resources?.resources ?? []),
          ];
      if (!deps.documents) return { resources: first };
      const page = await mcpErrors(() => deps.documents!(request.params?.cursor), deps.log);
      return {
        resources: [
          ...first,
          ...page.documents.map((d) => ({
            uri: `${DOCUMENT_URI_PREFIX}${encodeURIComponent(d.id)}`,
            name: d.title,
            description: `${d.source} · ${d.sourceId}`,
            mimeType: DOCUMENT_MIME_TYPE,
          })),
        ],
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      };
    });
    server.setRequestHandler('resources/templates/list', () => ({
      resourceTemplates: [...catalog.resourceTemplates, ...(deps.resources?.templates ?? [])],
    }));
    server.setRequestHandler('resources/read', async (request, ctx) => {
      const { uri } = request.params;
      // 2026-07-28 requests carry the per-request envelope; earlier revisions get -32002 (their spec's code).
      if (ctx.mcpReq.envelope === undefined) legacy.mark(ctx.mcpReq.id); // used only if this request fails as not found
      // The live index's status is an admin's, as `GET /sync/status` is (ADR 0223); others: not found.
      if (uri === SYNC_STATUS_URI && deps.syncStatus && mayAdminister(requestOrigin().scope)) {
        const status = await mcpErrors(deps.syncStatus, deps.log);
        return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(status) }] };
      }
      const fromPlugin =
        deps.resources && (await mcpErrors(() => deps.resources!.read(uri, ctx.mcpReq.signal), deps.log, uri));
      if (fromPlugin) return { contents: [fromPlugin] };
      if (!uri.startsWith(DOCUMENT_URI_PREFIX)) throw new ResourceNotFoundError(uri, `Resource not found: ${uri}`);
      const id = documentId(uri);
      const doc = (await mcpErrors(() => tools.call('get', { id }), deps.log, uri)) as { body: string };
      return { contents: [{ uri, mimeType: DOCUMENT_MIME_TYPE, text: doc.body }] };
    });
    return server;
  };
}

/** The catalog's entries the request's token may see (all without a `tools` scope). */
function visible<T extends { name: string }>(entries: T[]): T[] {
  const scope = requestOrigin().scope;
  return scope?.tools === undefined ? entries : entries.filter((e) => toolAllowed(scope, e.name));
}

/** The document id of `kbctx://documents/{id}`; a bad percent-encoding is the client's fault (-32602). */
function documentId(uri: string): string {
  try {
    return decodeURIComponent(uri.slice(DOCUMENT_URI_PREFIX.length));
  } catch {
    const shown = uri.length > 200 ? `${uri.slice(0, 200)}…` : uri;
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `uri '${shown}' is not a valid document URI: bad percent-encoding in the id`,
    );
  }
}

/**
 * Runs `fn`, turning a KbctxError into the JSON-RPC error of the error table (a missing resource into the SDK's own
 * error).
 */
async function mcpErrors<T>(fn: () => Promise<T>, log: (line: string) => void, resourceUri?: string): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (resourceUri !== undefined && isKbctxError(error) && error.code === 'not_found')
      throw new ResourceNotFoundError(resourceUri, error.message);
    if (isKbctxError(error)) throw new ProtocolError(errorMapping(error.code).mcp, error.message);
    throw new ProtocolError(errorMapping('internal').mcp, errorText(error, log));
  }
}

function errorText(error: unknown, log: (line: string) => void): string {
  if (isKbctxError(error)) return `${error.code}: ${error.message}`;
  const id = Math.random().toString(36).slice(2, 10);
  log(`internal error ${id}: ${(error as Error)?.stack ?? String(error)}`);
  return `internal error ${id}; see the server log`;
}
