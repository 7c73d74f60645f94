// mcp-http's contract entry: its own hooks (ADR 0160's extension points), for plugins that observe the MCP
// endpoint (the metrics plugin's open-request and listen-stream gauges, ADR 0226). Light: tapable and core's entry.
import { SyncHook } from 'tapable';
import { defineExtensionPoint, type PluginKernel } from '../../core/api/plugin.ts';

/**
 * One MCP exchange on `/mcp`: a request being answered (`request`: its response, streamed or not, not yet ended) or
 * an open 2026-07-28 `subscriptions/listen` stream (`listen`). The same object is passed when it opens and when it
 * closes.
 */
export interface McpExchange {
  readonly kind: 'request' | 'listen';
  /** The name of the token the request authenticated with; null: no auth. */
  readonly token: string | null;
}

/**
 * mcp-http's hooks (sync, observation only). `exchangeOpened` is called when a request to `/mcp` starts to be
 * answered (a refused listen stream is not), `exchangeClosed` exactly once for each when its response ends or the
 * client goes. The MCP endpoint keeps no sessions (2026-07-28 is per-request; 2025 clients are served statelessly):
 * these are what it has open. A tap's error is logged and never changes the answer.
 */
export const mcpHttpHooks = defineExtensionPoint({
  id: 'mcp-http',
  hooks: () => ({
    exchangeOpened: new SyncHook<[McpExchange]>(['exchange'], 'exchangeOpened'),
    exchangeClosed: new SyncHook<[McpExchange]>(['exchange'], 'exchangeClosed'),
  }),
  tapTimeoutMs: { exchangeOpened: 0, exchangeClosed: 0 },
});

export type McpHttpHooks = ReturnType<typeof mcpHttpHooks.hooks>;

/** mcp-http's hooks in this kernel: `getMcpHttpHooks(kernel).exchangeOpened.tap('my-plugin', (x) => …)`. */
export const getMcpHttpHooks = (kernel: Pick<PluginKernel, 'hooksOf'>): McpHttpHooks => kernel.hooksOf(mcpHttpHooks);
