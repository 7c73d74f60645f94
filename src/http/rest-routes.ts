// The REST endpoints of SPEC §4 as a table of (method, path pattern) → handler. Handlers translate
// HTTP to the same registry calls the MCP surface and the CLI make; nothing else.
import type { AgentRegistry } from '../app/agents.ts';
import type { ToolRegistry } from '../app/tools.ts';
import { agentsToWire, toolsToWire } from '../app/wire.ts';

export interface RouteRequest {
  params: Record<string, string>;
  /** Parsed JSON body (only read for POST routes). */
  body: unknown;
  signal: AbortSignal;
  /** The peer's IP address (loopback checks). */
  remoteAddress?: string | undefined;
}

export interface Route {
  method: 'GET' | 'POST';
  /** Segments; `:name` captures one path segment. */
  path: string;
  handle(req: RouteRequest): Promise<unknown>;
}

export interface RestDeps {
  tools: ToolRegistry;
  agents: AgentRegistry;
  version: string;
}

/** The method of a tool's own path: `GET /tools/sources` (it takes no parameters), POST for every other tool. */
export function toolRouteMethod(name: string): 'GET' | 'POST' {
  return name === 'sources' ? 'GET' : 'POST';
}

export function restRoutes({ tools, agents, version }: RestDeps): Route[] {
  const call = (name: string, body: unknown, signal: AbortSignal): Promise<unknown> => tools.call(name, body, { signal });
  return [
    { method: 'GET', path: '/health', handle: () => Promise.resolve({ status: 'ok', version }) },
    { method: 'POST', path: '/tools/search', handle: (r) => call('search', r.body, r.signal) },
    { method: 'POST', path: '/tools/get', handle: (r) => call('get', r.body, r.signal) },
    { method: 'GET', path: '/tools/sources', handle: (r) => call('sources', {}, r.signal) },
    { method: 'GET', path: '/tools/list', handle: () => Promise.resolve(toolsToWire(tools.list())) },
    { method: 'POST', path: '/tools/:name', handle: async (r) => ({ result: await call(r.params['name']!, r.body, r.signal) }) },
    { method: 'GET', path: '/agents/list', handle: () => Promise.resolve(agentsToWire(agents.list())) },
    { method: 'POST', path: '/agents/:name/prompt', handle: (r) => agents.resolve(r.params['name']!, r.body, { signal: r.signal }) },
  ];
}
