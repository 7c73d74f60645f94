// The kernel's public API: what plugins (first-party and third-party) import. Nothing else in core/
// is a contract; `import { definePlugin } from 'kbctx'` re-exports this file.
import type * as McpServerModule from './mcp/index.ts';
export { definePlugin, type JsonSchema, type Plugin, type PluginKernel, type PluginMeta } from './plugin.ts';
export { STAGE } from './stages.ts';
export { createServiceRef, type ServiceRef } from './services.ts';
export { fileExtraction } from './file-extraction.ts';
export { PluginError } from './plugin-error.ts';
export { liveIndexService } from './live-index.ts';
export { extensionConnector, extensionsService, type ExtensionDeps, type ExtensionLoadFailure, type ExtensionsService, type LoadedExtensions } from './extensions-service.ts';
export type { ExtensionAgent, ExtensionAgentContext, ExtensionConnector, ExtensionTool, KbctxExtensionHost } from './app/extension-api.ts';
export { toExtensionAgent } from './app/extension-agent.ts';
export { invalid, toExtensionTool } from './app/extension-tool.ts';
export { runWithDeadline } from './app/run-with-deadline.ts';
export { CONNECTOR_TYPES, type ExtensionsConfig } from './config/types.ts';
export { cliService } from './cli/cli-service.ts';
export type { CliContext } from './cli/context.ts';
export { formatTable } from './cli/table.ts';
export { DEFAULT_CONFIG_PATH } from './config/load-config.ts';
export type { ConnectorStatus, EmbedReport, LiveConnector, LiveIndexHost, LiveIndexService, LiveSyncHandle, SyncControl, SyncCounts, SyncReport, SyncState, WatchSpec } from './live-index.ts';
export type { LiveIndex } from './cli/commands/serve-live.ts';
export { KERNEL_API_VERSION } from './kernel.ts';
export { packageRoot } from './package-root.ts';
// The error table every surface answers with, and the server's bind/exposure policy (issue 23).
export { errorMapping, type ErrorCode } from './domain/error-table.ts';
export { isLoopbackHost, parseBind, toHttpUrl, type BindAddress } from './http/bind-address.ts';
export { checkExposure, type Exposure } from './http/exposure-policy.ts';
export type { ServerConfig } from './config/types.ts';
// The registries every surface (REST, MCP, CLI) calls, and their wire shapes.
export type { ToolRegistry, ToolInfo } from './app/tools.ts';
export type { AgentRegistry } from './app/agents.ts';
export { agentsToWire, toolsToWire } from './app/wire.ts';
/** The MCP server factory the MCP transports share; a function so only a serving process loads the MCP SDK. */
export const loadMcpServer = (): Promise<typeof McpServerModule> => import('./mcp/index.ts');
export type { McpServerDeps } from './mcp/index.ts';
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

// The kernel's domain: errors, models, config and store types, connector and embedding helpers (issue 22).
export type { Config, FilesystemConnectorConfig, GitConnectorConfig, S3ConnectorConfig, ScriptConfig } from './config/types.ts';
export type { Connector, LoadedItem, ScanEntry, ScanOptions, ScanResult, UnreadablePath } from './connectors/connector.ts';
export { extractText, loadFileItem } from './connectors/lazy-text.ts';
export { createGlobFilter } from './connectors/globs.ts';
export type { GlobFilter } from './connectors/globs.ts';
export type { ExtractOutcome, Extracted } from './connectors/text/extract.ts';
export { decodeText } from './connectors/text/text.ts';
export { KbctxError, badRequest, configError, notFound, isKbctxError } from './domain/errors.ts';
export { documentId, sha256Hex } from './domain/ids.ts';
export { lineLog } from './domain/log-line.ts';
export type { Chunk, SourceItem, SourceStats } from './domain/models.ts';
export { pathProblem } from './domain/path-problem.ts';
export { toUnitVectors } from './embed/check-vectors.ts';
export type { RetryOptions } from './embed/embedder.ts';
export { postJson } from './embed/post-json.ts';
export { analyzeQuery, stem, tokenize, toFtsMatch } from './search/analyze-query.ts';
export type { QueryTerm } from './search/analyze-query.ts';
export { bm25Reference, normalizeBm25 } from './search/bm25-normalize.ts';
export { COLUMN_WEIGHTS, fts5Idf } from './search/bm25-terms.ts';
export { termBounds, topGroups } from './search/postings-topk.ts';
export type { Postings, RowStats, ScoredTerm, TermBounds } from './search/postings-topk.ts';
export { segmentCjk } from './search/segment-cjk.ts';
export { dotAt, exactTopK, normalizeInPlace } from './search/vector-topk.ts';
export type { RowScore } from './search/vector-topk.ts';
export { lazyLocks, lazyStore } from './store/lazy-store.ts';
export { redactUrl } from './store/redact-url.ts';
export type { ConnectorLocks, ConnectorState, DocumentHead, DocumentState, EmbeddingClaim, EmbeddingSpace, EmbeddingSpaceCount, EmbeddingWrite, IntegrityReport, KeywordHit, KeywordQuery, KeywordResult, PendingChunk, ReleaseLock, SourceFilter, SourceState, Store, StoreCounts, StoredDocument, StoredEmbedding, UpsertOutcome, VectorHit, VectorIndexReport, VectorQuery, VectorResult } from './store/store.ts';
export { fileLocks, lockConnector } from './store/sync-lock.ts';
export { waitForLock } from './store/wait-for-lock.ts';
export { PARAM_TYPES, toJsonSchema, validateParams } from './tools/param-spec.ts';
export type { ParamSpec, ParamType } from './tools/param-spec.ts';

// The kernel's domain: errors, models, config and store types, connector and embedding helpers (issue 22).
export type { Agent, AgentArgument, PromptMessage, ResolvedPrompt } from './app/agents.ts';
export type { Kbctx } from './app/compose.ts';
export { getDocumentWithChunks, listDocumentPage, type DocumentLister } from './app/documents.ts';
export { indexService } from './app/index-service.ts';
export { inlineAgentsService } from './app/inline-agents-service.ts';
export { guardAgent, guardTool } from './app/part-guards.ts';
export type { PartCheck } from './app/part-guards.ts';
export { parseSearchParams } from './app/search-params.ts';
export { search } from './app/search.ts';
export type { SearchDeps } from './app/search.ts';
export { indexStats, listSources } from './app/sources.ts';
export { builtinTools } from './app/tools.ts';
export type { Tool, ToolCallContext } from './app/tools.ts';
export { chunkToWire, documentToWire, searchResultToWire, sourcesToWire, statsToWire } from './app/wire.ts';
export { serveService } from './cli/commands/serve-service.ts';
export type { ServeState } from './cli/commands/serve-service.ts';
export { VERSION } from './version.ts';
export { localStoreService, type LocalStoreOpener } from './store/local-store-service.ts';
export { chunkText, type ChunkSizes } from './domain/chunker.ts';
export { hostService, type HostInfo, type LoadFailure } from './app/host-service.ts';
export { collect, parseKeyValues } from './cli/key-values.ts';

// The kernel's domain: errors, models, config and store types, connector and embedding helpers (issue 22).
export { parsePrompt } from './app/part-values/prompt.ts';
export { parseCheckpoint, toScanResult } from './app/part-values/scan-items.ts';
export type { RawScan } from './app/part-values/scan-items.ts';
export { parseToolMeta } from './app/part-values/tool-meta.ts';
export type { ToolMeta } from './app/part-values/tool-meta.ts';
export { asArray, asString, toScriptConfig } from './app/part-values/values.ts';
