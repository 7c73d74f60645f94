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
import { AgentRegistry, inlineAgent } from './app/agents.ts';
import { builtinTools, ToolRegistry } from './app/tools.ts';
import type { SyncDeps } from './app/sync.ts';
import { openSqliteStore } from './store/sqlite/sqlite-store.ts';
import type { Store } from './store/store.ts';

export interface Lore {
  readonly config: Config;
  readonly store: Store;
  createConnector(ref: ConnectorRef): Connector;
  connectorLabels(): string[];
  searchDeps(): SearchDeps;
  syncDeps(onProgress?: SyncDeps['onProgress']): SyncDeps;
  /** Built once per process: built-in tools plus script/registry tools as they are added. */
  tools(): ToolRegistry;
  agents(): AgentRegistry;
  close(): void;
}

export function openLore(config: Config): Lore {
  const store = openSqliteStore(config.db.path);
  registerDocumentFormats();
  const connectorLabels = (): string[] => configuredConnectors(config).map((c) => c.label);
  const cache = new SearchCache(config.retrieval.cacheSize);
  const searchDeps = (): SearchDeps => ({ store, retrieval: config.retrieval, cache });
  let tools: ToolRegistry | undefined;
  let agents: AgentRegistry | undefined;
  return {
    config,
    store,
    createConnector: (ref) => createConnector(config, ref),
    connectorLabels,
    searchDeps,
    syncDeps: (onProgress) => ({ store, chunking: config.chunking, onProgress }),
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
