// The REST endpoints of SPEC §4 as a table of (method, path pattern) → handler. Handlers translate
// HTTP to the same registry calls the MCP surface and the CLI make; nothing else.
import type { HttpRoute, HttpRouteRequest, HttpSurface } from '../../core/hook-types.ts';
import type { AgentRegistry } from '../../core/app/agents.ts';
import type { ToolRegistry } from '../../core/app/tools.ts';
import { agentsToWire, toolsToWire } from '../../core/app/wire.ts';

export type RouteRequest = HttpRouteRequest;
export type Route = HttpRoute;

export interface RestDeps {
  tools: ToolRegistry;
  agents: AgentRegistry;
}

/** The method of a tool's own path: `GET /tools/sources` (it takes no parameters), POST for every other tool. */
export function toolRouteMethod(name: string): 'GET' | 'POST' {
  return name === 'sources' ? 'GET' : 'POST';
}

export function restRoutes({ tools, agents }: RestDeps): Route[] {
  const call = (name: string, body: unknown, signal: AbortSignal): Promise<unknown> => tools.call(name, body, { signal });
  return [
    { method: 'POST', path: '/tools/search', handle: (r) => call('search', r.body, r.signal) },
    { method: 'POST', path: '/tools/get', handle: (r) => call('get', r.body, r.signal) },
    { method: 'GET', path: '/tools/sources', handle: (r) => call('sources', {}, r.signal) },
    { method: 'GET', path: '/tools/list', handle: () => Promise.resolve(toolsToWire(tools.list())) },
    { method: 'POST', path: '/tools/:name', handle: async (r) => ({ result: await call(r.params['name']!, r.body, r.signal) }) },
    { method: 'GET', path: '/agents/list', handle: () => Promise.resolve(agentsToWire(agents.list())) },
    { method: 'POST', path: '/agents/:name/prompt', handle: (r) => agents.resolve(r.params['name']!, r.body, { signal: r.signal }) },
  ];
}

/** The REST API as the HTTP server mounts it; the banner lists one line per tool. */
export function restSurface(deps: RestDeps): HttpSurface {
  return {
    routes: restRoutes(deps),
    listing: () => deps.tools.list().map((tool) => `${toolRouteMethod(tool.name)} /tools/${tool.name}  ${tool.description}`),
  };
}
