// The validated, frozen configuration handed to the rest of kbctx. camelCase here; the TOML keys
// (snake_case, as SPEC §2 spells them) are translated in schema.ts and nowhere else.

import type { EmbedderOptions } from '../embed/embedder.ts';
import type { StoreOptions } from '../store/store-factory.ts';
import type { OwnedTables } from './check-owned.ts';

export type Fusion = 'weighted' | 'rrf';

export interface Config {
  /** The file this came from; null for the built-in default. */
  readonly file: string | null;
  /** Folder relative paths were resolved against (the working directory). */
  readonly baseDir: string;
  /**
   * `[db]` as the store taps receive it: `engine`, `path` (absolute, or an object-storage URL) and `url` (or
   * KBCTX_DATABASE_URL; null: none) are the kernel's keys; the rest (`keywordEngine`, `poolSize`, `storageOptions`,
   * `lockLeaseSecs`) are made by the store plugins' `storeConfigs` sections (ADR 0239).
   */
  readonly db: Readonly<Omit<StoreOptions, 'access'>>;
  readonly chunking: ChunkingConfig;
  readonly embedding: EmbeddingConfig;
  readonly retrieval: RetrievalConfig;
  /**
   * `[connectors.<type>.<name>]`: type → name → the table, as its plugin's `toConfig` made it (the owned types,
   * each present even with no instance, in the bundled plugins' order), or as written (types a configured plugin or
   * an extension provides, checked when it loads). A plugin reads its own through its typed accessor (`connectorsOf`).
   */
  readonly connectors: ConnectorTables;
  /**
   * Each connector's own `sync_interval` (the host's key, on every connector table), in seconds, by `<type>:<name>`;
   * absent: `[sync] interval`, the live index's section (ADR 0250).
   */
  readonly syncIntervals: Readonly<Record<string, number>>;
  /** `[tools.<form>]` sections a plugin owns (`tools.script`: the Lua bridge's), as its `toConfig` made them. */
  readonly tools: Readonly<Record<string, unknown>>;
  /** `[agents.<form>]` sections a plugin owns (`agents.inline`, `agents.script`), as its `toConfig` made them. */
  readonly agents: Readonly<Record<string, unknown>>;
  readonly registries: Readonly<Record<string, RegistryConfig>>;
  /**
   * `${VAR}`s left unset, by the part that uses them (`connectors.script.jira`, `tools.script.x`,
   * `agents.script.y`, `agents.inline.z`): that part fails when it runs (config/load-config.ts requireEnvFor).
   */
  readonly unsetEnv?: Readonly<Record<string, readonly { key: string; variable: string }[]>>;
  readonly plugins: PluginsConfig;
  /**
   * The top-level sections plugins own (`[server]`, `[scripts]`, `[models]`), as their `toConfig` made them: a plugin
   * reads its own through its typed accessor (`sectionOf`), never by the name here.
   */
  readonly [section: string]: unknown;
}

/** `[connectors.<type>.<name>]` tables: type → name → table (typed by the plugin owning the type). */
export type ConnectorTables = Readonly<Record<string, Readonly<Record<string, unknown>>>>;
type TomlTables = Readonly<Record<string, Readonly<Record<string, Readonly<Record<string, unknown>>>>>>;

/** The top-level `plugins` list and the `[plugin.<name>]` tables (core/load/). */
export interface PluginsConfig {
  /**
   * As written: `bundled`, `!name`, paths (relative to `baseDir`) or package names; in a config module also plugin
   * objects (ADR 0128).
   */
  readonly entries: readonly (string | object)[];
  /** `[plugin.<name>]` tables as written; each is validated against its plugin's options schema. */
  readonly options: Readonly<Record<string, Record<string, unknown>>>;
  /**
   * The config root, as for every relative path (ADR 0114): the project folder above `config/` (the working directory
   * for the built-in config).
   */
  readonly baseDir: string;
  /** The config file the list came from (names inline plugin objects in errors); null for the built-in config. */
  readonly configFile: string | null;
  /** `kbctx.lock` beside the config file, pinning trusted registry plugins; null for the built-in config. */
  readonly lockFile: string | null;
  /** The configured registries' folders: a plugin file inside one must be pinned in `lockFile`. */
  readonly registries: readonly { name: string; path: string }[];
  /**
   * `[connectors.<type>]` of types no bundled plugin owns, as written: each checked by the plugin declaring it
   * (core/config/configured-sections.ts).
   */
  readonly connectors: TomlTables;
  /**
   * Sections another plugin serves, and what it provides (`tools:script`): checked once the plugins are applied
   * (core/load/load-plugins.ts).
   */
  readonly needs?: readonly { section: string; provides: string; why?: string }[];
  /** When the list names configured plugins: what their `storeConfigs`/`embedderConfigs` check when applied. */
  readonly owned?: DeferredSections | undefined;
}

/**
 * What a configured plugin's sections check when it is applied (ADR 0241, 0250; core/config/configured-sections.ts).
 */
export interface DeferredSections {
  /**
   * What the bundled set's sections left, as written: top-level tables, connector types, `[db]` keys no bundled store
   * declares, the `[embedding]` keys of a provider no bundled plugin owns (absent under `disabled`).
   */
  readonly left: OwnedTables;
  /** `[db]`'s engine, url and path as the loader chose them: a configured store's claims are checked against them. */
  readonly db: { readonly engine: string; readonly url: string | null; readonly path: string };
  /** Every variable a `${VAR}` in the config refers to (ConfigSectionContext.referencedEnv). */
  readonly referencedEnv: readonly string[];
}

export interface ChunkingConfig {
  readonly maxTokens: number;
  readonly overlapTokens: number;
}

/**
 * `[embedding]`: what a `createEmbedder.for(provider)` tap receives but the environment; `provider` is `disabled` or
 * the key a plugin taps (`local`, `openai`, `transformers`).
 */
export type EmbeddingConfig = Omit<EmbedderOptions, 'env'>;

export interface RetrievalConfig {
  readonly finalLimit: number;
  readonly maxLimit: number;
  /** Null: the embedder's recommended weight, else DEFAULT_HYBRID_ALPHA (ADR 0150). */
  readonly hybridAlpha: number | null;
  readonly candidateKKeyword: number;
  readonly candidateKVector: number;
  readonly fusion: Fusion;
  /** Search responses kept per process (0: no cache); entries die with any index change. */
  readonly cacheSize: number;
}

export interface RegistryConfig {
  readonly url: string | null;
  readonly branch: string | null;
  readonly path: string;
  readonly readonly: boolean;
  readonly autoUpdate: boolean;
  readonly priority: number | null;
}
