// The kernel's public API: what plugins (first-party and third-party) import. Nothing else in core/
// is a contract; `import { definePlugin } from 'kbctx'` re-exports this file.
export { definePlugin, type JsonSchema, type Plugin, type PluginKernel, type PluginMeta } from './plugin.ts';
export { STAGE } from './stages.ts';
export { createServiceRef, type ServiceRef } from './services.ts';
export { fileExtraction } from './file-extraction.ts';
export { PluginError } from './plugin-error.ts';
export { KbctxError, notFound } from './domain/errors.ts';
export { liveIndexService } from './live-index.ts';
export type { ConnectorStatus, EmbedReport, LiveConnector, LiveIndexHost, LiveIndexService, LiveSyncHandle, SyncControl, SyncCounts, SyncReport, SyncState, WatchSpec } from './live-index.ts';
export { serveService, type ServeState } from './cli/commands/serve-service.ts';
export type { LiveIndex } from './cli/commands/serve-live.ts';
export type { Connector } from './connectors/connector.ts';
export type { GlobFilter } from './connectors/globs.ts';
export { KERNEL_API_VERSION } from './kernel.ts';
export { packageRoot } from './package-root.ts';
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
export { isIncrementalConnector } from './hook-types.ts';
