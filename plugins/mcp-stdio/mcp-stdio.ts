// `kbctx serve mcp --stdio`: the same server factory over stdin/stdout for desktop clients that
// launch MCP servers as subprocesses. Nothing else may write to stdout while it runs.
import type { Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { loadMcpServer, type Kernel, type McpServerDeps } from '../../core/index.ts';

/** The MCP server's dependencies (its catalog is built here from the registries), plus index changes. */
export interface McpStdioOptions extends Omit<McpServerDeps, 'catalog' | 'resources'> {
  /** The kernel whose `resources` hook gives the plugins' MCP resources. */
  kernel: Kernel;
  /** Registers for index changes: the connected (2025-revision) client gets `notifications/resources/list_changed`. */
  onIndexChanged?: ((listener: () => void) => void) | undefined;
}

/** Serves until stdin closes; resolves then. */
export async function runMcpStdio(options: McpStdioOptions): Promise<void> {
  const { buildMcpCatalog, collectPluginResources, createMcpServerFactory } = await loadMcpServer();
  const catalog = buildMcpCatalog(options.tools, options.agents);
  const create = createMcpServerFactory({ catalog, ...options, resources: collectPluginResources(options.kernel) });
  const servers: Server[] = [];
  const factory = (): Server => {
    const server = create();
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
