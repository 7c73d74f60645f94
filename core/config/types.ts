// The validated, frozen configuration handed to the rest of kbctx. camelCase here; the TOML keys
// (snake_case, as SPEC §2 spells them) are translated in schema.ts and nowhere else.

import type { EmbedderOptions } from '../hook-types.ts';

// The built-in names, or the key a plugin taps `createEmbedder.for(provider)` with (`transformers`).
export type EmbeddingProvider = 'disabled' | 'openai' | 'ollama' | 'local' | (string & {});
export type Fusion = 'weighted' | 'rrf';

export interface Config {
  /** The file this came from; null for the built-in default. */
  readonly file: string | null;
  /** Folder relative paths were resolved against (the working directory). */
  readonly baseDir: string;
  /**
   * keywordEngine: `postings` (top-k with dynamic pruning, a file beside the index) or `fts5` (FTS5 ranks every match).
   */
  /**
   * `url`: a PostgreSQL database shared by replicas (null: the SQLite file at `path`, the default); with
   * a url, `path`'s folder holds this replica's local mirror. `poolSize`: connections per replica.
   */
  readonly db: {
    /** `[db] engine`: which store plugin opens the index (default: postgres with a url, else sqlite). */
    readonly engine: string;
    readonly path: string;
    readonly keywordEngine: 'postings' | 'fts5';
    readonly url: string | null;
    readonly poolSize: number;
  };
  readonly chunking: ChunkingConfig;
  readonly embedding: EmbeddingConfig;
  readonly retrieval: RetrievalConfig;
  readonly server: ServerConfig;
  readonly scripts: ScriptsRuntimeConfig;
  readonly connectors: ConnectorsConfig;
  readonly sync: SyncConfig;
  readonly tools: { readonly script: Readonly<Record<string, ScriptConfig>> };
  readonly agents: {
    readonly inline: Readonly<Record<string, InlineAgentConfig>>;
    readonly script: Readonly<Record<string, ScriptConfig>>;
  };
  readonly registries: Readonly<Record<string, RegistryConfig>>;
  /**
   * `${VAR}`s left unset, by the part that uses them (`connectors.script.jira`, `tools.script.x`,
   * `agents.script.y`, `agents.inline.z`): that part fails when it runs (config/load-config.ts requireEnvFor).
   */
  readonly unsetEnv?: Readonly<Record<string, readonly { key: string; variable: string }[]>>;
  readonly extensions: ExtensionsConfig;
  readonly plugins: PluginsConfig;
  /**
   * The top-level sections plugins own (`[server]`, `[models]` …, ADR 0164), as each plugin's `toConfig` made them;
   * absent in hand-built configs.
   */
  readonly sections?: Readonly<Record<string, unknown>>;
}

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
   * `[connectors.<type>]` of types no bundled plugin owns (as `connectors.extension`): each checked by the plugin
   * declaring it.
   */
  readonly connectors: ConnectorsConfig['extension'];
  /**
   * Sections another plugin serves, and what it provides (`tools:script`): checked once the plugins are applied
   * (core/load/load-plugins.ts).
   */
  readonly needs?: readonly { section: string; provides: string; why?: string }[];
}

/** `[extensions]`: compiled (JavaScript) extension modules, loaded by the extensions plugin (plugins/extensions/). */
export interface ExtensionsConfig {
  /** As written: paths (relative to `baseDir`) or package names. */
  readonly modules: readonly string[];
  /**
   * The config root, as for every relative path (ADR 0114): the project folder above `config/` (the working directory
   * for the built-in config).
   */
  readonly baseDir: string;
  /** Default time-out of every extension tool, agent and connector call. */
  readonly timeoutSecs: number;
}

export interface ChunkingConfig {
  readonly maxTokens: number;
  readonly overlapTokens: number;
}

/** `[embedding]`: the fields a `createEmbedder.for(provider)` tap receives (declared in core/), with the provider. */
export interface EmbeddingConfig extends Omit<EmbedderOptions, 'provider' | 'env'> {
  readonly provider: EmbeddingProvider;
}

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

export interface ServerConfig {
  readonly bind: string;
  readonly corsEnabled: boolean;
  readonly corsOrigins: readonly string[];
  /** Extra Host names accepted besides loopback names (DNS-rebinding protection). */
  readonly allowedHosts: readonly string[];
  readonly maxBodyBytes: number;
  /** Open MCP `subscriptions/listen` streams per server process, and per client (token or address). */
  readonly maxListenStreams: number;
  readonly maxListenStreamsPerClient: number;
  /** Server processes sharing the listening socket (1: a single process). */
  readonly workers: number;
  /** Name of the environment variable holding the Bearer token (never the token itself); null: no auth. */
  readonly authTokenEnv: string | null;
  /** Lets a non-loopback bind start without a token (with a warning). */
  readonly allowUnauthenticated: boolean;
  readonly headersTimeoutSecs: number;
  readonly requestTimeoutSecs: number;
  readonly keepAliveTimeoutSecs: number;
  /** The server watches filesystem connectors (docs/sync.md); 'poll': by periodic rescans instead of file events. */
  readonly watch: boolean | 'poll';
}

export interface ScriptsRuntimeConfig {
  /** Variables Lua `env.get` may read: `[scripts] env_allow` plus every `${VAR}` the config references. */
  readonly envAllow: readonly string[];
}

/** Background sync schedules (`[sync]` and each connector's `sync_interval`), in seconds; 0 = no schedule. */
export interface SyncConfig {
  readonly intervalSecs: number;
  /** Per connector label (`<type>:<name>`): its own interval, or the default. */
  readonly connectorIntervals: Readonly<Record<string, number>>;
}

export interface FilesystemConnectorConfig {
  readonly root: string;
  readonly includeGlobs: readonly string[];
  readonly excludeGlobs: readonly string[];
  readonly followSymlinks: boolean;
  readonly maxFileBytes: number;
}

export interface GitConnectorConfig {
  readonly url: string;
  readonly branch: string;
  readonly root: string;
  readonly includeGlobs: readonly string[];
  readonly excludeGlobs: readonly string[];
  readonly shallow: boolean;
  readonly cacheDir: string | null;
  readonly maxFileBytes: number;
  /** Limit for each git process (clone, fetch, checkout, log); its whole process group is killed then. */
  readonly timeoutSecs: number;
}

export interface S3ConnectorConfig {
  readonly bucket: string;
  readonly prefix: string;
  readonly region: string;
  readonly endpointUrl: string | null;
  readonly includeGlobs: readonly string[];
  readonly excludeGlobs: readonly string[];
  readonly maxFileBytes: number;
}

/** A Lua script entry (connector, tool or agent): `path`, `timeout`, and every other key for the script. */
export interface ScriptConfig {
  readonly path: string;
  readonly timeoutSecs: number;
  readonly extra: Readonly<Record<string, unknown>>;
}

export interface InlineAgentConfig {
  readonly description: string;
  readonly tools: readonly string[];
  readonly systemPrompt: string;
}

export interface RegistryConfig {
  readonly url: string | null;
  readonly branch: string | null;
  readonly path: string;
  readonly readonly: boolean;
  readonly autoUpdate: boolean;
  readonly priority: number | null;
}

export interface ConnectorsConfig {
  readonly filesystem: Readonly<Record<string, FilesystemConnectorConfig>>;
  readonly git: Readonly<Record<string, GitConnectorConfig>>;
  readonly s3: Readonly<Record<string, S3ConnectorConfig>>;
  readonly script: Readonly<Record<string, ScriptConfig>>;
  /** `[connectors.<type>.<name>]` of types an extension registers: type → name → the raw TOML table. */
  readonly extension: Readonly<Record<string, Readonly<Record<string, Readonly<Record<string, unknown>>>>>>;
}

export const CONNECTOR_TYPES = ['filesystem', 'git', 's3', 'script'] as const;
export type ConnectorType = (typeof CONNECTOR_TYPES)[number];
