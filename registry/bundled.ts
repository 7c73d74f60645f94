// The ordered first-party plugin set that the `bundled` entry of `plugins` stands for. Each plugin's
// index is small: heavy code is imported when its hooks are first called.
import type { Plugin } from '../core/index.ts';
import agentsInline from '../plugins/agents-inline/index.ts';
import chunkerDefault from '../plugins/chunker-default/index.ts';
import connectorFilesystem from '../plugins/connector-filesystem/index.ts';
import connectorGit from '../plugins/connector-git/index.ts';
import connectorS3 from '../plugins/connector-s3/index.ts';
import embedderLocal from '../plugins/embedder-local/index.ts';
import embedderOllama from '../plugins/embedder-ollama/index.ts';
import embedderOpenai from '../plugins/embedder-openai/index.ts';
import extractDocuments from '../plugins/extract-documents/index.ts';
import liveIndex from '../plugins/live-index/index.ts';
import luaBridge from '../plugins/lua-bridge/index.ts';
import mcpHttp from '../plugins/mcp-http/index.ts';
import mcpStdio from '../plugins/mcp-stdio/index.ts';
import rest from '../plugins/rest/index.ts';
import storePostgres from '../plugins/store-postgres/index.ts';
import storeSqlite from '../plugins/store-sqlite/index.ts';
import toolsBuiltin from '../plugins/tools-builtin/index.ts';
import transportHttp from '../plugins/transport-http/index.ts';
import web from '../plugins/web/index.ts';

// The HTTP surfaces tap `httpRoutes` in this order, which is the banner's and the route table's.
export const BUNDLED_PLUGINS: readonly Plugin[] = Object.freeze([
  storeSqlite,
  storePostgres,
  extractDocuments,
  connectorFilesystem,
  connectorGit,
  connectorS3,
  chunkerDefault,
  embedderLocal,
  embedderOpenai,
  embedderOllama,
  luaBridge,
  toolsBuiltin,
  agentsInline,
  transportHttp,
  rest,
  mcpHttp,
  web,
  liveIndex,
  mcpStdio,
] as Plugin[]);

/** Which bundled plugin provides a built-in connector type (for errors when it is dropped). */
export const BUILTIN_CONNECTOR_PLUGINS: Readonly<Record<string, string>> = Object.freeze({
  filesystem: 'connector-filesystem',
  git: 'connector-git',
  s3: 'connector-s3',
  script: 'lua-bridge',
});

/** Which bundled plugin provides a built-in store engine (for errors when it is dropped). */
export const BUILTIN_STORE_PLUGINS: Readonly<Record<string, string>> = Object.freeze({
  sqlite: 'store-sqlite',
  postgres: 'store-postgres',
});

/** The bundled default chunker: when it is the only `chunk` tap, sync calls its chunkText directly (same result, no hook call). */
export const BUNDLED_CHUNKER = 'chunker-default';

/** Which bundled plugin provides a built-in embedding provider (for errors when it is dropped). */
export const BUILTIN_EMBEDDER_PLUGINS: Readonly<Record<string, string>> = Object.freeze({
  local: 'embedder-local',
  openai: 'embedder-openai',
  ollama: 'embedder-ollama',
});
