// The composition root: the one place that picks concrete adapters (SQLite store, connectors,
// later embedders, Lua runtime, registries) and wires them into the app's use-cases.
import path from 'node:path';
import type { Config } from './config/types.ts';
import type { Connector } from './connectors/connector.ts';
import { FilesystemConnector } from './connectors/filesystem/filesystem-connector.ts';
import { GitConnector } from './connectors/git/git-connector.ts';
import { S3Connector } from './connectors/s3/s3-connector.ts';
import { registerDocumentFormats } from './connectors/formats/document-formats.ts';
import { LoreError } from './core/errors.ts';
import { configuredConnectors, type ConnectorRef } from './app/select-connectors.ts';
import type { SearchDeps } from './app/search.ts';
import { SearchCache } from './app/search-cache.ts';
import { AgentRegistry, inlineAgent, type Agent } from './app/agents.ts';
import { builtinTools, ToolRegistry, type Tool } from './app/tools.ts';
import type { SyncDeps } from './app/sync.ts';
import { createSemanticSearch } from './app/semantic-search.ts';
import { embedAfterSync } from './app/embed-after-sync.ts';
import { createEmbedder } from './embed/create-embedder.ts';
import type { Embedder } from './embed/embedder.ts';
import { openSqliteStore } from './store/sqlite/sqlite-store.ts';
import type { Store } from './store/store.ts';
import { createContextBridge } from './scripting/context-bridge.ts';
import { Scripting, type ScriptLoadFailure } from './scripting/scripting.ts';

export interface Lore {
  readonly config: Config;
  readonly store: Store;
  createConnector(ref: ConnectorRef): Connector;
  connectorLabels(): string[];
  searchDeps(): SearchDeps;
  syncDeps(onProgress?: SyncDeps['onProgress']): SyncDeps;
  /** The configured embedding provider, built on first use; null when [embedding] is disabled. */
  embedder(): Embedder | null;
  /** Built once per process: built-in tools plus script/registry tools as they are added. */
  tools(): ToolRegistry;
  agents(): AgentRegistry;
  /** The Lua runtime (workers start on first use), with the context bridge over this index. */
  scripts(): Scripting;
  /** Reads every configured script tool and agent in the sandbox and registers it. Idempotent; broken scripts are returned, not thrown. */
  loadScripts(): Promise<ScriptLoadFailure[]>;
  close(): void;
}

export function openLore(config: Config, env: NodeJS.ProcessEnv = process.env): Lore {
  const store = openSqliteStore(config.db.path, { keywordEngine: config.db.keywordEngine });
  registerDocumentFormats();
  const connectorLabels = (): string[] => configuredConnectors(config).map((c) => c.label);
  const cache = new SearchCache(config.retrieval.cacheSize);
  let embedderCache: Embedder | null | undefined;
  const embedder = (): Embedder | null => (embedderCache ??= createEmbedder(config.embedding, env));
  const semantic = config.embedding.provider === 'disabled' ? undefined : createSemanticSearch(() => embedder() as Embedder);
  const searchDeps = (): SearchDeps => ({ store, retrieval: config.retrieval, semantic, cache });
  let tools: ToolRegistry | undefined;
  let agents: AgentRegistry | undefined;
  let scripting: Scripting | undefined;
  let scriptsLoaded: Promise<ScriptLoadFailure[]> | undefined;
  const scripts = (): Scripting => (scripting ??= new Scripting({ context: createContextBridge({ store, searchDeps, connectorLabels }) }));
  return {
    config,
    store,
    createConnector: (ref) => createConnector(config, ref, scripts),
    connectorLabels,
    searchDeps,
    syncDeps: (onProgress) => ({
      store,
      chunking: config.chunking,
      onProgress,
      afterConnector: config.embedding.provider === 'disabled' ? undefined : embedAfterSync(store, embedder),
    }),
    embedder,
    tools() {
      if (!tools) {
        tools = new ToolRegistry();
        for (const tool of builtinTools({ store, retrieval: config.retrieval, searchDeps, connectorLabels })) tools.register(tool);
      }
      return tools;
    },
    agents() {
      if (!agents) {
        agents = new AgentRegistry();
        for (const [name, agent] of Object.entries(config.agents.inline)) agents.register(inlineAgent(name, agent));
      }
      return agents;
    },
    scripts,
    loadScripts() {
      scriptsLoaded ??= (async () => {
        const tools = await scripts().loadAll<Tool>('tool', config.tools.script);
        for (const tool of tools.loaded) this.tools().register(tool);
        const loadedAgents = await scripts().loadAll<Agent>('agent', config.agents.script);
        for (const agent of loadedAgents.loaded) this.agents().register(agent);
        return [...tools.failures, ...loadedAgents.failures];
      })();
      return scriptsLoaded;
    },
    close: () => {
      scripting?.close();
      store.close();
    },
  };
}

/** The Lua runtime without an index (`connector test`): `context.*` is unavailable. */
export function openScripts(): Scripting {
  return new Scripting();
}

function createConnector(config: Config, ref: ConnectorRef, scripts: () => Scripting): Connector {
  switch (ref.type) {
    case 'filesystem': {
      const c = config.connectors.filesystem[ref.name];
      if (c) return new FilesystemConnector(ref.name, c);
      break;
    }
    case 'git': {
      const c = config.connectors.git[ref.name];
      if (c) return new GitConnector(ref.name, c, { dataDir: path.dirname(config.db.path), baseDir: config.baseDir });
      break;
    }
    case 's3': {
      const c = config.connectors.s3[ref.name];
      if (c) return new S3Connector(ref.name, c);
      break;
    }
    case 'script': {
      const c = config.connectors.script[ref.name];
      if (c) return scripts().connector(ref.name, c);
      break;
    }
    default:
      return unavailable(ref);
  }
  throw new LoreError('not_found', `connector ${ref.label} is not configured`);
}

/** A configured connector type this build cannot sync yet: its sync fails with a clear message. */
function unavailable(ref: ConnectorRef): Connector {
  return {
    label: ref.label,
    type: ref.type,
    scan: () =>
      Promise.reject(new LoreError('config_error', `${ref.label}: ${ref.type} connectors are not supported by this version of Lore yet`)),
  };
}
