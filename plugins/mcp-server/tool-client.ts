// The calling MCP client as a tool sees it (ToolClient): log messages through the SDK's
// `ctx.mcpReq.log`, which applies the client's level (logging/setLevel, or the 2026-07-28 request's
// `_meta` logLevel: none sends nothing, SEP-2575), and progress for the request's progressToken.
// Notifications are best effort: a client gone mid-call must not fail the tool.
import type { ServerContext } from '@modelcontextprotocol/server';
import type { ToolClient } from '../../core/index.ts';

export function toolClientOf(ctx: ServerContext): ToolClient {
  const token = ctx.mcpReq._meta?.progressToken;
  const quietly = (send: () => Promise<void>): Promise<void> => send().catch(() => undefined);
  return {
    log: (level, data, logger) => quietly(() => ctx.mcpReq.log(level, data, logger)),
    progress: (progress, total, message) =>
      token === undefined
        ? Promise.resolve()
        : quietly(() =>
            ctx.mcpReq.notify({
              method: 'notifications/progress',
              params: {
                progressToken: token,
                progress,
                ...(total !== undefined ? { total } : {}),
                ...(message !== undefined ? { message } : {}),
              },
            }),
          ),
  };
}
