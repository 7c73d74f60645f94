// The tool registry's types, the kernel's side of its `tools` collection: the parameter specs a plugin's tool declares
// (`PluginToolDef.params`), a tool as the registry runs it, what a tool may send its caller, and the registry every
// surface (REST, MCP, the CLI, the library) calls through. Types only: the registry, parameter validation and the tool
// spec checks are the tool-registry plugin's, which collects the `tools` hook and provides the registry as
// `kbctx.tools` (its ref and `toolsOf`: plugins/tool-registry/api.ts; ADR 0249, 0254).
import type { AccessScope } from '../domain/access-scope.ts';
import type { RequestOrigin } from '../app/request-origin.ts';
import type { PluginContext } from '../plugin-context.ts';
import type { PluginToolDef, ToolCall } from './part-defs.ts';

export type ParamType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';

export interface ParamSpec {
  name: string;
  type: ParamType;
  required?: boolean | undefined;
  description?: string | undefined;
  default?: unknown;
  enum?: readonly unknown[] | undefined;
  /**
   * For `object` parameters: the documented sub-fields, copied into the JSON Schema as written (a sub-field may
   * list several types and carry `items` or `additionalProperties`); the tool checks them itself.
   */
  properties?: Readonly<Record<string, SubFieldSpec>> | undefined;
  /** Longest accepted string (type `string` only); MAX_STRING_PARAM_CHARS when absent. */
  maxLength?: number | undefined;
  /**
   * Further JSON Schema keywords for this parameter, checked by ajv: `items`, `pattern`, `minimum`,
   * `maximum`, `minLength`, `additionalProperties`, nested `properties`/`required`… Errors name the
   * path (`parameter 'tags/0': must match pattern "^[a-z]+$"`).
   */
  schema?: Readonly<Record<string, unknown>> | undefined;
}

/** A documented sub-field of an `object` parameter (JSON Schema keywords). */
export interface SubFieldSpec {
  type: ParamType | readonly ParamType[];
  description?: string;
  [keyword: string]: unknown;
}

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

/** The kernel's `toolCall` (answer or refuse before the tool runs) and `toolResult` taps, as the registry runs them. */
export interface ToolHooks {
  toolCall?: ((call: ToolCall) => Promise<unknown>) | undefined;
  toolResult?: ((result: unknown, call: ToolCall) => Promise<unknown>) | undefined;
}

// The client that called a tool, as the tool sees it: log messages and progress sent to it while the tool runs. Only
// MCP has a channel back (the mcp-server plugin's tool-client.ts builds one per `tools/call`); over REST and the CLI
// the tool gets NO_TOOL_CLIENT, whose calls do nothing.

/** MCP's log levels, least severe first (RFC 5424 names). */
export type ClientLogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

export interface ToolClient {
  /**
   * An MCP `notifications/message` to the calling client, sent only if its level lets it through:
   * the level of `logging/setLevel` (2025 revisions; stateless HTTP has no session to keep one, so
   * there every message goes), or the request's `_meta` logLevel (2026-07-28; none: nothing is sent,
   * SEP-2575). Resolves once sent or dropped; never rejects.
   */
  log(level: ClientLogLevel, data: unknown, logger?: string): Promise<void>;
  /**
   * An MCP `notifications/progress` for this call, sent only when the request carried a
   * `progressToken`. `progress` should grow with each call; `total` when known. Never rejects.
   */
  progress(progress: number, total?: number, message?: string): Promise<void>;
}
