// The package's main export (`import { openKbctx, definePlugin } from 'kbctx'`): the library API and
// the plugin contract (registry/lib/index.ts), with the bundled plugin set handed to the kernel.
import './bundled.ts';

export * from './lib/index.ts';
// transport-http's contract entry (its `httpRoutes` hook and the HTTP surface types), which core no longer declares.
export * from '../plugins/transport-http/api.ts';
// Its `[server] bind` parsing and exposure policy (api.ts loads them on demand; the package exports them as before).
export { isLoopbackHost, parseBind, toHttpUrl } from '../plugins/transport-http/bind-address.ts';
export { checkExposure } from '../plugins/transport-http/exposure-policy.ts';
// mcp-server's contract entry (the service the MCP transports build their servers with), which core no longer holds.
export * from '../plugins/mcp-server/api.ts';
// tools-builtin's contract entry (the search tool's parameter parsing; documents, sources, stats and their wire shapes)
// and its spec and unknown-parameter check, which core no longer holds (ADR 0232, 0238).
export * from '../plugins/tools-builtin/api.ts';
export { FILTER_FIELDS, SEARCH_PARAMS } from '../plugins/tools-builtin/search-params.ts';
export { rejectUnknownParams } from '../plugins/tools-builtin/unknown-params.ts';
// `get`'s line ranges, formerly core's (ADR 0249; `citation` is the entry's).
export { parseLineRange, sliceLines } from '../plugins/tools-builtin/documents.ts';
// A sync report in the contract's names, formerly core's host-wire.ts (the cli plugin's, ADR 0251).
export { syncReportToWire } from '../plugins/cli/sync-wire.ts';
// store-sqlite's contract entry (the `kbctx.local-store` service) and store-postgres's URL redaction, formerly core's.
export * from '../plugins/store-sqlite/api.ts';
export { redactUrl } from '../plugins/store-postgres/redact-url.ts';
// store-lancedb's contract entry (`isObjectStorePath`, the `[db] path` it claims), formerly core's (ADR 0241).
export * from '../plugins/store-lancedb/api.ts';
// The SQLite store's FTS5 MATCH expression and its filter function's key, formerly core's algorithms (ADR 0240).
export { toFtsMatch } from '../plugins/store-sqlite/keyword-search.ts';
export { facetsKey, parseFacetsKey } from '../plugins/store-sqlite/filter-sql.ts';
// chunker-default's contract entry (`chunkText`, `estimateTokens`): the default chunking, which core no longer holds.
export * from '../plugins/chunker-default/api.ts';
// The cli plugin's contract entry (the `kbctx.cli` service, `CliContext`, the table and progress helpers for plugin
// commands).
export * from '../plugins/cli/api.ts';
// extract-text's contract entry (the file connectors' file items, text extraction, `fileExtraction`), formerly core's.
export * from '../plugins/extract-text/api.ts';
// The config sections' types and accessors, each from the plugin that owns the section (ADR 0192).
export * from '../plugins/connector-filesystem/api.ts';
export * from '../plugins/connector-git/api.ts';
export * from '../plugins/connector-s3/api.ts';
export * from '../plugins/lua-bridge/api.ts';
// The guards of a script tool or agent whose config uses an unset `${VAR}` (the Lua bridge's, formerly core's).
export { guardAgent, guardTool } from '../plugins/lua-bridge/part-guards.ts';
// What crosses between a script and the kernel (a scan's result and checkpoint, a tool's declaration, a config as
// plain JSON): the Lua bridge's, formerly core's (ADR 0241).
export {
  parseCheckpoint,
  toScanResult,
  toScriptConfig,
  type RawScan,
} from '../plugins/lua-bridge/scripting/script-values.ts';
export { parseToolMeta, type ToolMeta } from '../plugins/lua-bridge/scripting/tool-meta.ts';
export * from '../plugins/agents-inline/api.ts';
// tool-registry's contract entry: parameter validation, a tool spec's checks, a token's `tools` scope, formerly core's
// (ADR 0249).
export * from '../plugins/tool-registry/api.ts';
// The live index's status types the surfaces see (live-index's contract entry; formerly core's, ADR 0238).
export type { ConnectorStatus, LiveIndex, SyncControl, SyncCounts, SyncState } from '../plugins/live-index/api.ts';
// The JSON POST the HTTP embedders and the reranker share (embedder-openai's contract entry), which core no longer
// holds.
export * from '../plugins/embedder-openai/api.ts';
// The types compiled extension modules are written against (the extensions plugin's contract entry).
export type {
  ExtensionAgent,
  ExtensionAgentContext,
  ExtensionCallContext,
  ExtensionConnector,
  ExtensionItem,
  ExtensionJsonSchema,
  ExtensionParameter,
  ExtensionPrompt,
  ExtensionTool,
  KbctxExtension,
  KbctxExtensionHost,
  ExtensionsConfig,
} from '../plugins/extensions/api.ts';
// `[extensions]`, the extensions plugin's section (ADR 0250).
export { extensionsConfigOf } from '../plugins/extensions/api.ts';
