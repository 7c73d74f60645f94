// The kernel's public API: what plugins (first-party and third-party) import. Nothing else in core/
// is a contract; `import { definePlugin } from 'kbctx'` re-exports this file.
export { definePlugin, type JsonSchema, type Plugin, type PluginKernel, type PluginMeta } from './plugin.ts';
export { STAGE } from './stages.ts';
export { createServiceRef, type ServiceRef } from './services.ts';
export { fileExtraction } from './file-extraction.ts';
export { PluginError } from './plugin-error.ts';
export { KERNEL_API_VERSION } from './kernel.ts';
export { packageRoot } from './package-root.ts';
import type * as McpServerModule from './mcp/index.ts';
// Errors and their one table (every surface answers with these), and the server's bind/exposure policy.
export { KbctxError, badRequest, notFound, isKbctxError } from './domain/errors.ts';
export { errorMapping, type ErrorCode } from './domain/error-table.ts';
export { isLoopbackHost, parseBind, toHttpUrl, type BindAddress } from './http/bind-address.ts';
export { checkExposure, type Exposure } from './http/exposure-policy.ts';
export type { ServerConfig } from './config/types.ts';
// The registries every surface (REST, MCP, CLI) calls, and their wire shapes.
export type { ToolRegistry, ToolInfo } from './app/tools.ts';
export type { AgentRegistry } from './app/agents.ts';
export { agentsToWire, toolsToWire } from './app/wire.ts';
export { listDocumentPage, type DocumentLister } from './app/documents.ts';
/** The MCP server factory the MCP transports share; a function so only a serving process loads the MCP SDK. */
export const loadMcpServer = (): Promise<typeof McpServerModule> => import('./mcp/index.ts');
export type { IndexServices, PluginContext, PluginLogger } from './plugin-context.ts';
export type { HookName, TapOnlyHooks } from './hooks.ts';
export type {
  ChunkRequest,
  Collector,
  ConnectorInstance,
  DoctorCheck,
  DocumentDraft,
  Embedder,
  EmbedderOptions,
  ExtractedText,
  ExtractRequest,
  FileExtraction,
  Hit,
  HttpApp,
  HttpReply,
  HttpRequest,
  HttpRoute,
  HttpRouteRequest,
  HttpSurface,
  PluginAgentDef,
  PluginConnector,
  PluginFileSpec,
  ConnectorImpl,
  IncrementalConnector,
  OpenedStore,
  PluginItem,
  PluginPrompt,
  PluginToolDef,
  RunningTransport,
  SearchRequest,
  StoreOptions,
  ToolCall,
  TransportOptions,
} from './hook-types.ts';
export { HTTP_HANDLER_TRANSPORT, isIncrementalConnector } from './hook-types.ts';
