// The composition root: the one place that picks concrete adapters (SQLite store, connectors,
// later embedders, Lua runtime, registries) and wires them into the app's use-cases.
import type { Config } from './config/types.ts';
import type { Connector } from './connectors/connector.ts';
import { FilesystemConnector } from './connectors/filesystem/filesystem-connector.ts';
import { LoreError } from './core/errors.ts';
import { configuredConnectors, type ConnectorRef } from './app/select-connectors.ts';
import type { SearchDeps } from './app/search.ts';
import { AgentRegistry, inlineAgent } from './app/agents.ts';
import { builtinTools, ToolRegistry } from './app/tools.ts';
import type { SyncDeps } from './app/sync.ts';
import { createSemanticSearch } from './app/semantic-search.ts';
import { embedAfterSync } from './app/embed-after-sync.ts';
import { createEmbedder } from './embed/create-embedder.ts';
import type { Embedder } from './embed/embedder.ts';
import { openSqliteStore } from './store/sqlite/sqlite-store.ts';
import type { Store } from './store/store.ts';

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
  close(): void;
}

export function openLore(config: Config, env: NodeJS.ProcessEnv = process.env): Lore {
  const store = openSqliteStore(config.db.path);
  const connectorLabels = (): string[] => configuredConnectors(config).map((c) => c.label);
  let embedderCache: Embedder | null | undefined;
  const embedder = (): Embedder | null => (embedderCache ??= createEmbedder(config.embedding, env));
  const semantic = config.embedding.provider === 'disabled' ? undefined : createSemanticSearch(() => embedder() as Embedder);
  const searchDeps = (): SearchDeps => ({ store, retrieval: config.retrieval, semantic });
  let tools: ToolRegistry | undefined;
  let agents: AgentRegistry | undefined;
  return {
    config,
    store,
    createConnector: (ref) => createConnector(config, ref),
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
    close: () => store.close(),
  };
}

function createConnector(config: Config, ref: ConnectorRef): Connector {
  switch (ref.type) {
    case 'filesystem': {
      const c = config.connectors.filesystem[ref.name];
      if (c) return new FilesystemConnector(ref.name, c);
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
