// The plugin contract, a light entry of the public API (ADR 0130): what a plugin's index needs to
// apply — `definePlugin`, stages, the services the host and plugins provide, the error family, the
// store wrappers a store plugin returns at once — and every type of the contract. It loads a dozen
// small modules, so a command imports each plugin's index without the whole API; a plugin's heavier
// files may import `core/index.ts` (everything: this, ./algorithms.ts and the rest), loaded on first use.
export type {
  ConfigSection,
  ConfigSectionContext,
  StoreConfigSection,
  StoreUrlClaim,
  StorePathClaim,
} from '../config/config-section.ts';
export {
  definePlugin,
  type JsonSchema,
  type Plugin,
  type PluginKernel,
  type PluginMeta,
  STAGE,
} from '../plugin.ts';
export { requireOwn } from '../load/require-own.ts';
import { requireOwn } from '../load/require-own.ts';
import type * as WaitForLock from '../store/wait-for-lock.ts';
import type * as ProcessAlive from '../store/process-alive.ts';
import type * as ClosestName from '../domain/closest-name.ts';
import type * as Access from '../domain/access-scope.ts';
export { createServiceRef, type ServiceRef } from '../services.ts';
export { defineExtensionPoint, type ExtensionPoint, type HookSet } from '../extension-point.ts';
// The collector a hook's caller passes: each item is recorded with the plugin whose tap added it.
export { PerPluginCollector } from '../collector.ts';
export { PluginError } from '../plugin-error.ts';
export { DEFAULT_CALL_TIMEOUT_SECS } from '../app/run-with-deadline.ts';
export { KbctxError, badRequest, configError, notFound, isKbctxError } from '../domain/errors.ts';
// Names for error messages ("did you mean …?"): required on first use (start-up, ADR 0130).
export const closestName: typeof ClosestName.closestName = (name, candidates) =>
  closest().closestName(name, candidates);
export const didYouMean: typeof ClosestName.didYouMean = (name, candidates) => closest().didYouMean(name, candidates);
const closest = (): typeof ClosestName => requireOwn<typeof ClosestName>(import.meta.url, '../domain/closest-name.ts');
export type { ErrorCode } from '../domain/errors.ts';

// Services: the host's (index, host) and the ones plugins provide (the CLI's and `kbctx serve`'s: plugins/cli/api.ts).
export { collectedRegistry, hostService, type HostInfo, type LoadFailure } from '../app/host-service.ts';
export {
  indexService,
  indexToolsService,
  searchCacheService,
  stageObserverService,
  type BuiltinDeps,
  type IndexHost,
  type SearchCacheRuntime,
  type StageAttributes,
  type StageObserver,
} from '../app/index-service.ts';
// The live index's contract is plugins/live-index/api.ts; the reports it hands on are the engine's.
export type { SyncReport } from '../app/sync.ts';
export type { EmbedProgress, EmbedReport } from '../app/embed.ts';
export type { PartCheck } from '../app/part-guards.ts';

// What a store plugin returns synchronously: a store forwarding to the one being opened, and its locks. The lock files
// and the index access check of a local index are store-sqlite's (its api.ts, ADR 0240).
export { lazyLocks, lazyStore } from '../store/lazy-store.ts';
/** Whether a process id runs (a lock file's holder); required on first use (start-up, ADR 0130). */
export const processAlive: typeof ProcessAlive.processAlive = (pid) =>
  requireOwn<typeof ProcessAlive>(import.meta.url, '../store/process-alive.ts').processAlive(pid);
/**
 * Whether a caller may administer the server (`domain/access-scope.ts`: REST's `requireAdmin`, MCP's sync status;
 * ADR 0223), required on first use: a search does not load it (ADR 0130).
 */
export const mayAdminister = (scope: Access.AccessScope | undefined): boolean =>
  requireOwn<typeof Access>(import.meta.url, '../domain/access-scope.ts').mayAdminister(scope);
// A duration key (`"15s"`, `"5m"`, `"off"`) in a plugin's config section: checked as the kernel's are.
export { DURATION_SCHEMA } from '../config/json-check.ts';
export const waitForLock: typeof WaitForLock.waitForLock = async (...args) =>
  (await import('../store/wait-for-lock.ts')).waitForLock(...args);

export type { IndexServices, PluginContext, PluginLogger } from '../plugin-context.ts';
/** What `ctx.search`, `ctx.get` and `ctx.sources` answer: the REST bodies. */
export type { KbctxDocument, SearchHit, SearchOutput, SourceInfo } from '../domain/wire-types.ts';
export type { HookName, RankTapOptions, TapOnlyHooks } from '../hooks.ts';
export type { RequestOrigin, Surface } from '../app/request-origin.ts';
export type { AccessScope } from '../domain/access-scope.ts';
export type { SearchRecord } from '../domain/search-record.ts';
export type {
  ChunkPiece,
  ChunkRequest,
  CliProgram,
  Collector,
  DoctorCheck,
  DocumentDraft,
  ExtractedText,
  ExtractRequest,
  FileExtraction,
  Hit,
  PluginFileSpec,
  RankControl,
  RunningTransport,
  SearchRequest,
  TransportOptions,
} from '../hook-types.ts';
export type { Embedder, EmbedderOptions } from '../embed/embedder.ts';
export type { OpenedStore, StoreOptions, IndexAccess } from '../store/store-factory.ts';
export type {
  PluginAgentDef,
  PluginResourceDef,
  PluginResourceContents,
  PluginPrompt,
  PluginToolContext,
  PluginToolDef,
  PromptContentBlock,
  ToolCall,
} from '../tools/part-defs.ts';
export { isIncrementalConnector } from '../connectors/connector.ts';
export type {
  ConnectorImpl,
  ConnectorInstance,
  IncrementalConnector,
  PluginConnector,
  PluginItem,
} from '../connectors/connector.ts';
export type { Config, ConnectorTables, RetrievalConfig } from '../config/types.ts';
// Tool parameter specs (a tool's `params`; the built-in search tool's, tools-builtin's search-params.ts).
export type { ParamSpec, ParamType, SubFieldSpec } from '../tools/tool-types.ts';
// A plugin types the sections it owns in its own config-section.ts and reads them through these (ADR 0192).
export { connectorsOf, sectionOf } from '../config/sections-of.ts';
export type {
  Connector,
  ConnectorWarning,
  GlobFilter,
  LoadedItem,
  ScanEntry,
  SkipReason,
  ScanOptions,
  ScanResult,
  UnreadablePath,
  WatchTarget,
} from '../connectors/connector.ts';
export type { Chunk, ChunkRecord, SourceItem, SourceStats } from '../domain/models.ts';
export { chunkFromRecord } from '../domain/models.ts';
export type { RetryOptions } from '../embed/embedder.ts';
export type {
  ConnectorLocks,
  ConnectorState,
  ConnectorSyncRun,
  DocumentHead,
  DocumentState,
  EmbeddingClaim,
  EmbeddingSpace,
  EmbeddingSpaceCount,
  EmbeddingWrite,
  IntegrityReport,
  KeywordHit,
  KeywordQuery,
  KeywordResult,
  PendingChunk,
  ReleaseLock,
  SourceFilter,
  SourceState,
  Store,
  StoreCounts,
  StoredDocument,
  StoredEmbedding,
  SyncRun,
  UpsertOutcome,
  VectorHit,
  VectorIndexReport,
  VectorQuery,
  VectorResult,
} from '../store/store.ts';
// What a tool may send its caller and the `toolCall`/`toolResult` taps a registry runs (the registry and its types are
// the tool-registry plugin's, ADR 0254; the built-in tools' bodies tools-builtin's).
export type { ClientLogLevel, ToolClient, ToolHooks } from '../tools/tool-types.ts';
export type { Kbctx } from '../app/compose.ts';
