// The kernel's side of the tools: the parameter specs a plugin's tool declares (`PluginToolDef.params`), what a tool
// may send its caller (`ToolClient`) and the `toolCall`/`toolResult` taps a registry runs (`ToolHooks`, handed out by
// `kbctx.host`). Types only: the registry, its types (`ToolRegistry`, `Tool`, `ToolInfo` …), parameter validation and
// the tool spec checks are the tool-registry plugin's, which collects the `tools` hook and provides the registry as
// `kbctx.tools` (plugins/tool-registry/api.ts; ADR 0249, 0254).
import type { ToolCall } from './part-defs.ts';

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
