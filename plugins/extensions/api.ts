// The extensions plugin's contract entry (ADR 0160): the contract a compiled extension module is
// written against (docs/extensions.md: its default export receives a KbctxExtensionHost and registers
// tools, agents and connector types; the package re-exports these types), and the loader's service.
import {
  createServiceRef,
  sectionOf,
  type Config,
  type Plugin,
  type PluginItem,
  type PromptContentBlock,
  type ToolClient,
} from '../../core/api/plugin.ts';

/** `[extensions]` (the plugin's section, ADR 0250), defaults applied. */
export interface ExtensionsConfig {
  /** As written: paths (relative to `baseDir`) or package names. */
  readonly modules: readonly string[];
  /** The config root, as for every relative path (ADR 0114): the project folder above `config/`. */
  readonly baseDir: string;
  /** Default time-out of every extension tool, agent and connector call. */
  readonly timeoutSecs: number;
}

/** The config's `[extensions]`. */
export const extensionsConfigOf = (config: Config): ExtensionsConfig =>
  sectionOf<ExtensionsConfig>(config, 'extensions');

/** A tool parameter in the script-tool form; `parameters` may also be a JSON Schema object. */
export interface ExtensionParameter {
  name: string;
  type?: 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';
  required?: boolean;
  description?: string;
  default?: unknown;
  enum?: unknown[];
}

/** `{type: 'object', properties: {...}, required: [...]}`: one level, the types of ExtensionParameter. */
export interface ExtensionJsonSchema {
  properties?: Record<string, Omit<ExtensionParameter, 'name' | 'required'>>;
  type: 'object';
  required?: string[];
}

export interface ExtensionCallContext {
  /** Aborted at the time-out or when the caller goes away: pass it to fetch and friends. */
  signal: AbortSignal;
}

export interface ExtensionToolContext extends ExtensionCallContext {
  /**
   * Log messages and progress to the calling client: MCP notifications; no-ops over REST and the CLI
   * (docs/plugins-reference.md).
   */
  client: ToolClient;
}

export interface ExtensionTool {
  name: string;
  description?: string;
  parameters?: ExtensionJsonSchema | ExtensionParameter[];
  /** Seconds; default `[extensions] timeout` (30). */
  timeout?: number;
  /** True when calling the tool changes nothing (MCP `readOnlyHint`). */
  readOnly?: boolean;
  /** Receives validated, defaulted parameters; resolves to any JSON value (the `result` of `POST /tools/{name}`). */
  execute(params: Record<string, unknown>, ctx: ExtensionToolContext): unknown;
}

/** What an agent's `resolve` can read: the built-in tools, answering with the REST bodies. */
export interface ExtensionAgentContext {
  search(params: { query: string; mode?: string; limit?: number; source?: string }): Promise<unknown>;
  get(id: string): Promise<unknown>;
  sources(): Promise<unknown>;
}

export interface ExtensionPrompt {
  system: string;
  /** Defaults to the agent's `tools`. */
  tools?: string[];
  /** `content`: text, or an MCP content block (image, embedded resource …) sent as it is over MCP. */
  messages?: { role: 'user' | 'assistant'; content: string | PromptContentBlock }[];
}

export interface ExtensionAgent {
  name: string;
  description?: string;
  tools?: string[];
  arguments?: { name: string; description?: string; required?: boolean }[];
  timeout?: number;
  resolve(
    args: Record<string, unknown>,
    ctx: ExtensionCallContext & { context: ExtensionAgentContext },
  ): ExtensionPrompt | Promise<ExtensionPrompt>;
}

/** One document from a connector; the same fields as a Lua connector's items (and a plugin connector's). */
export type ExtensionItem = PluginItem;

export interface ExtensionConnector {
  /** Configured as `[connectors.<type>.<name>]`, synced as `<type>:<name>`. */
  type: string;
  timeout?: number;
  /** Every item the source holds (what is not listed is deleted from the index). `config` is the TOML table. */
  scan(
    config: Record<string, unknown>,
    ctx: ExtensionCallContext & { name: string },
  ): AsyncIterable<ExtensionItem> | Iterable<ExtensionItem>;
}

export interface KbctxExtensionHost {
  /** The kbctx version loading the module. */
  readonly version: string;
  registerTool(tool: ExtensionTool): void;
  registerAgent(agent: ExtensionAgent): void;
  registerConnector(connector: ExtensionConnector): void;
}

/** The default export of an extension module. */
export type KbctxExtension = (kbctx: KbctxExtensionHost) => void | Promise<void>;

export interface ExtensionDeps {
  version: string;
  /** What agents' `resolve` receives as `context`. */
  context: ExtensionAgentContext;
  /** Names an extension tool may not take (the built-in tools). */
  reservedTools: ReadonlySet<string>;
  /** Item warnings of its connectors (a bad item is skipped). */
  warn: (message: string) => void;
}

export interface ExtensionLoadFailure {
  /** `extension:<module as written>`. */
  label: string;
  /** The resolved path (when resolution got that far) and the error. */
  message: string;
}

export interface LoadedExtensions {
  /** One plugin per module that loaded, in config order, with the file it came from. */
  plugins: { plugin: Plugin; file: string }[];
  failures: ExtensionLoadFailure[];
}

export interface ExtensionsService {
  load(config: ExtensionsConfig, deps: ExtensionDeps): Promise<LoadedExtensions>;
}

/** The loader, provided by the extensions plugin (which loads the configured modules itself at `boot`). */
export const extensionsService = createServiceRef<ExtensionsService>('kbctx.extensions');
