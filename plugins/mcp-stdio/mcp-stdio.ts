// `kbctx serve mcp --stdio`: the same server factory over stdin/stdout for desktop clients that
// launch MCP servers as subprocesses. Nothing else may write to stdout while it runs.
import type { Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { McpServerFactory } from '../mcp-server/api.ts';

export interface McpStdioOptions {
  /** The SDK servers to answer with (mcp-server's `createFactory`). */
  server: McpServerFactory;
  log: (line: string) => void;
  /** Registers for index changes: the connected (2025-revision) client gets `notifications/resources/list_changed`. */
  onIndexChanged?: ((listener: () => void) => void) | undefined;
}

/** Serves until stdin closes; resolves then. */
export function runMcpStdio(options: McpStdioOptions): Promise<void> {
  const servers: Server[] = [];
  const factory = (): Server => {
    const server = options.server();
    servers.push(server);
    return server;
  };
  // The connection pins one instance (a discarded discovery probe may precede it): notify whichever is connected.
  options.onIndexChanged?.(() => {
    for (const server of servers) if (server.transport) void server.sendResourceListChanged().catch(() => {});
  });
  return new Promise<void>((resolve) => {
    const handle = serveStdio(factory, { onerror: (error) => options.log(`mcp: ${error.message}`) });
    const finish = (): void => void handle.close().finally(resolve);
    process.stdin.once('end', finish);
    process.stdin.once('close', finish);
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, finish);
  });
}
