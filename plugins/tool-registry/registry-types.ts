// The tool registry as the surfaces see it (REST, MCP, the CLI, the library): a tool as the registry runs it, its
// listing, the call context, and the registry `toolsOf` returns. Types only, moved from core's `tools/tool-types.ts`
// (ADR 0254): core keeps what the kernel's `tools`/`toolCall` hooks name (`ParamSpec`, `ToolClient`, `ToolHooks`).
import type {
  AccessScope,
  ParamSpec,
  ParamType,
  PluginContext,
  PluginToolDef,
  RequestOrigin,
  ToolClient,
} from '../../core/api/plugin.ts';

export interface JsonSchemaObject {
  type: 'object';
  properties: Record<
    string,
    {
      type: ParamType;
      description?: string;
      default?: unknown;
      enum?: unknown[];
      properties?: Record<string, unknown>;
      maxLength?: number;
      [keyword: string]: unknown;
    }
  >;
  required?: string[];
  [keyword: string]: unknown;
}

export interface ToolCallContext {
  /** Aborted when the caller gives up (client disconnect, time-out). */
  signal?: AbortSignal | undefined;
  /** The caller's channel for log messages and progress (MCP only); absent: none (REST, CLI). */
  client?: ToolClient | undefined;
  /** Who calls (the surface, the token's name): what a search made by the tool tells `searched` taps. */
  origin?: RequestOrigin | undefined;
}

export interface Tool {
  readonly name: string;
  readonly description: string;
  readonly params: readonly ParamSpec[];
  /**
   * The tool's whole JSON Schema as its author declared it (a plugin's `inputSchema`, an extension's
   * `parameters` object): advertised unchanged and checked as a whole after `params`. Absent: the
   * schema is built from `params`.
   */
  readonly inputSchema?: ToolSchema | undefined;
  readonly builtin: boolean;
  /** Where the tool comes from, as `kbctx tool list` shows it: the plugin's name, `script` for Lua tools. */
  readonly origin?: string | undefined;
  /** True when calling the tool changes nothing (MCP `readOnlyHint`). */
  readonly readOnly: boolean;
  /**
   * True: `run` resolves to an MCP tool result (`{content, isError?}`), passed on by MCP as it is
   * (PluginToolDef.content).
   */
  readonly content?: boolean;
  /** Runs with parameters already validated and defaulted. Resolves to a JSON-serialisable value. */
  run(params: Record<string, unknown>, ctx: ToolCallContext): Promise<unknown>;
}

/** A tool's advertised input schema: an object schema, its `properties` optional when declared whole. */
export interface ToolSchema {
  type: 'object';
  properties?: JsonSchemaObject['properties'];
  required?: string[];
  [keyword: string]: unknown;
}

export interface ToolInfo {
  name: string;
  description: string;
  builtin: boolean;
  readOnly: boolean;
  origin: string | undefined;
  parameters: ToolSchema;
}

/** The registry every tool plugins add is collected into; `scope`: a caller's token (ADR 0223). */
export interface ToolRegistry {
  /** Adds a tool; a later tool with the same name replaces an earlier one (explicit config beats registries). */
  register(tool: Tool): void;
  /**
   * Adds a plugin's tool (`tools.add`), checked (a script_error naming it) and run with the plugin's ctx; `plugin` is
   * its origin unless the def names a `source`.
   */
  add(def: PluginToolDef, contextFor: (signal: AbortSignal) => PluginContext, plugin: string): void;
  /** Whether the tool exists for `scope` (a tool outside its `tools` does not). */
  has(name: string, scope?: AccessScope): boolean;
  /** not_found for an unknown tool or one outside `scope`'s `tools` (the same answer, listing what it may call). */
  get(name: string, scope?: AccessScope): Tool;
  /** Built-ins first, then the rest by name; only those `scope` may call. */
  list(scope?: AccessScope): ToolInfo[];
  /** Validates (bad_request naming the parameter), applies defaults, runs. not_found for an unknown tool. */
  call(name: string, input: unknown, ctx?: ToolCallContext): Promise<unknown>;
}
