// The ordered first-party plugin set that the `bundled` entry of `plugins` stands for, handed to the
// kernel's host when this module is imported (core/app/bundled-set.ts). Each plugin's index is small:
// heavy code is imported when its hooks are first called.
import type { Plugin } from '../core/index.ts';
import { setBundledPlugins, setConfigFollower } from '../core/app/bundled-set.ts';
import { registerConfigSections } from '../core/config/plugin-sections.ts';
import { setPluginTrust } from '../core/load/load-plugins.ts';
import { requireOwn } from '../core/load/require-own.ts';
import type * as FollowOverrides from './follow-overrides.ts';
import agentsInline from '../plugins/agents-inline/index.ts';
import chunkerCode from '../plugins/chunker-code/index.ts';
import chunkerDefault from '../plugins/chunker-default/index.ts';
import cli from '../plugins/cli/index.ts';
import connectorFilesystem from '../plugins/connector-filesystem/index.ts';
import connectorGit from '../plugins/connector-git/index.ts';
import connectorS3 from '../plugins/connector-s3/index.ts';
import embedderLocal from '../plugins/embedder-local/index.ts';
import embedderOllama from '../plugins/embedder-ollama/index.ts';
import embedderOpenai from '../plugins/embedder-openai/index.ts';
import embedderTransformers from '../plugins/embedder-transformers/index.ts';
import evalPlugin from '../plugins/eval/index.ts';
import extensions from '../plugins/extensions/index.ts';
import extractDocuments from '../plugins/extract-documents/index.ts';
import extractText from '../plugins/extract-text/index.ts';
import liveIndex from '../plugins/live-index/index.ts';
import luaBridge from '../plugins/lua-bridge/index.ts';
import mcpHttp from '../plugins/mcp-http/index.ts';
import mcpServer from '../plugins/mcp-server/index.ts';
import mcpStdio from '../plugins/mcp-stdio/index.ts';
import metrics from '../plugins/metrics/index.ts';
import models from '../plugins/models/index.ts';
import rerank from '../plugins/rerank/index.ts';
import queryLog from '../plugins/query-log/index.ts';
import searchCache from '../plugins/search-cache/index.ts';
import registryCommands from '../plugins/registry-commands/index.ts';
import rest from '../plugins/rest/index.ts';
import storeCommands from '../plugins/store-commands/index.ts';
import storeLancedb from '../plugins/store-lancedb/index.ts';
import storePostgres from '../plugins/store-postgres/index.ts';
import storeSqlite from '../plugins/store-sqlite/index.ts';
import telemetry from '../plugins/telemetry/index.ts';
import toolRegistry from '../plugins/tool-registry/index.ts';
import toolsBuiltin from '../plugins/tools-builtin/index.ts';
import transportHttp from '../plugins/transport-http/index.ts';
import web from '../plugins/web/index.ts';

// The HTTP surfaces tap transport-http's `httpRoutes` in this order (transport-http first, so it declares it), which is
// the banner's and the route table's.
export const BUNDLED_PLUGINS: readonly Plugin[] = Object.freeze([
  storeSqlite,
  storePostgres,
  storeLancedb,
  storeCommands,
  evalPlugin,
  extractText, // before the file connectors, which depend on it
  extractDocuments,
  connectorFilesystem,
  connectorGit,
  connectorS3,
  chunkerCode, // before chunker-default: answers for code files, leaves the rest
  chunkerDefault,
  models, // before the embedders that use its service
  embedderLocal,
  embedderOpenai,
  embedderOllama,
  embedderTransformers,
  luaBridge,
  rerank, // after the Lua bridge: its rank taps see the candidates before they are reranked
  queryLog,
  searchCache, // the search responses' LRU (`kbctx.search-cache`); the engine searches without it when dropped
  toolRegistry, // the registry every plugin's tools are collected into (`kbctx.tools`)
  toolsBuiltin,
  agentsInline,
  mcpServer, // before the MCP transports, which depend on it
  transportHttp,
  rest,
  mcpHttp,
  web,
  liveIndex,
  metrics, // observes the HTTP server, tools and the live index; nothing depends on it
  mcpStdio,
  registryCommands,
  extensions,
  cli,
  telemetry, // last: its `shutdown` tap flushes the spans after the others' (its interceptors wrap earlier taps too)
] as Plugin[]);

setBundledPlugins(BUNDLED_PLUGINS);
// The config sections the set owns (`[server]`, `[agents.inline]`, the connector types), before any config loads.
registerConfigSections(BUNDLED_PLUGINS);
// Enabled registry extensions run the winning registry's copy (`registry override`). Without registries nothing
// moves, and the follower's module (it reads the Lua bridge's script sections) is not loaded (start-up, ADR 0130).
setConfigFollower((config) =>
  Object.keys(config.registries).length === 0
    ? config
    : requireOwn<typeof FollowOverrides>(import.meta.url, './follow-overrides.ts').followOverrides(config),
);
// Registry plugin files run only when kbctx.lock pins them (imported when a config names a plugin file).
setPluginTrust(async (settings) => (await import('./pinned-plugins.ts')).pinChecker(settings));
