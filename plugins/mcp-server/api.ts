// mcp-server's contract entry: the service the MCP transports (mcp-http, mcp-stdio, third-party ones)
// build their SDK servers with, and its types. The MCP SDK is imported for types alone (erased), so
// importing this file loads nothing but core's plugin entry; the server code loads on first use.
import type { Server } from '@modelcontextprotocol/server';
import { createServiceRef } from '../../core/api/plugin.ts';
import type { Kernel, Store } from '../../core/index.ts';
import type { AgentRegistry } from '../agents-inline/api.ts';
import type { ToolRegistry } from '../tool-registry/api.ts';

/**
 * What the MCP server answers from: the registries, the store's document pages, the live index, the plugins' resources.
 */
export interface McpServerOptions {
  tools: ToolRegistry;
  agents: AgentRegistry;
  /** The `serverInfo.version` clients see. */
  version: string;
  /** Where internal errors go (with an id the client is told). */
  log: (line: string) => void;
  /** The index whose documents `resources/list` pages through (absent: an empty list). */
  store?: Pick<Store, 'listDocuments' | 'getDocument'> | undefined;
  /** The live index's status as JSON (the read-only resource kbctx://sync/status); absent: no such resource. */
  syncStatus?: (() => Promise<unknown>) | undefined;
  /** The kernel whose `resources` hook gives the plugins' MCP resources (absent: none). */
  kernel?: Kernel | undefined;
}

/** A new SDK `Server` with kbctx's handlers attached; cheap: call it per HTTP request or per stdio connection. */
export type McpServerFactory = () => Server;

export interface McpServerService {
  /**
   * The server factory for these options: the catalog (tools, prompts, resource templates) and the
   * plugins' resources are collected once, here. Loads the MCP SDK and the server code on first call.
   */
  createFactory(options: McpServerOptions): Promise<McpServerFactory>;
}

/** Provided by the mcp-server plugin: `kernel.use(mcpServerService).createFactory({...})`. */
export const mcpServerService = createServiceRef<McpServerService>('kbctx.mcp-server');
