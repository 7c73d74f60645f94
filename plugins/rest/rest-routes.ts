// The REST endpoints of SPEC §4 as a fastify plugin: handlers translate HTTP to the same registry
// calls the MCP surface and the CLI make; nothing else. Auth, the Host guard, the JSON body parser and
// the error body come from the listener's instance (transport-http).
import { withRequestOrigin } from '../../core/index.ts';
import { agentsToWire } from '../agents-inline/api.ts';
import { toolsToWire } from '../tool-registry/api.ts';
import { requestOriginOf, type HttpApp, type HttpRequest, type HttpSurface } from '../transport-http/api.ts';
import type { AgentRegistry } from '../agents-inline/api.ts';
import type { ToolRegistry } from '../tool-registry/api.ts';

export interface RestDeps {
  tools: ToolRegistry;
  agents: AgentRegistry;
}

/** The method of a tool's own path: `GET /tools/sources` (it takes no parameters), POST for every other tool. */
export function toolRouteMethod(name: string): 'GET' | 'POST' {
  return name === 'sources' ? 'GET' : 'POST';
}

type Params = { Params: { name: string } };
const bodyOf = (request: HttpRequest): unknown => request.body ?? {};

export function restRoutes({ tools, agents }: RestDeps): (app: HttpApp) => void {
  // A tool outside the token's `tools` scope is an unknown tool (ADR 0223): `get` throws the same not_found.
  const call = async (name: string, request: HttpRequest, body: unknown = bodyOf(request)): Promise<unknown> => {
    tools.get(name, request.accessScope);
    return tools.call(name, body, { signal: request.clientGone, origin: originOf(request) });
  };
  return (app) => {
    app.post('/tools/search', (request) => call('search', request));
    // `?lines=12-48` is the body's `lines` (a citation pasted into a URL); the body's own wins.
    app.post('/tools/get', (request) => call('get', request, withLinesQuery(request)));
    app.get('/tools/sources', (request) => call('sources', request, {}));
    app.get('/tools/list', async (request) => toolsToWire(tools.list(request.accessScope)));
    app.post<Params>('/tools/:name', async (request) => ({ result: await call(request.params.name, request) }));
    app.get('/agents/list', async (request) => agentsToWire(agents.list(request.accessScope)));
    // A prompt's `context.search` (Lua, TS) reads the index as the caller's token (ADR 0225).
    app.post<Params>('/agents/:name/prompt', (request) =>
      withRequestOrigin(originOf(request), () =>
        agents.resolve(request.params.name, bodyOf(request), {
          signal: request.clientGone,
          scope: request.accessScope,
        }),
      ),
    );
  };
}

function withLinesQuery(request: HttpRequest): unknown {
  const lines = (request.query as Record<string, unknown> | undefined)?.['lines'];
  const body = bodyOf(request);
  return lines === undefined || typeof body !== 'object' || body === null || Array.isArray(body)
    ? body
    : { lines, ...body };
}

/** The web page marks its calls (`kbctx-surface: web`, plugins/web/client/lib/api.js); any other caller is REST. */
const originOf = (request: HttpRequest) =>
  requestOriginOf(request, request.headers['kbctx-surface'] === 'web' ? 'web' : 'rest');

/** The REST API as the HTTP server mounts it; the banner lists one line per tool. */
export function restSurface(deps: RestDeps): HttpSurface {
  return {
    register: restRoutes(deps),
    listing: () =>
      deps.tools.list().map((tool) => `${toolRouteMethod(tool.name)} /tools/${tool.name}  ${tool.description}`),
  };
}
