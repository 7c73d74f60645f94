// The tool registry: every tool plugins add (the built-in search, get and sources from tools-builtin,
// Lua script tools, registry tools). REST (`POST /tools/{name}`, `GET /tools/list`), MCP (`tools/list`,
// `tools/call`) and the CLI (`tool list`) all go through `listTools` / `callTool`, so validation,
// defaults and results are identical on every surface.
import { notFound } from '../domain/errors.ts';
import { toJsonSchema, validateParams, type JsonSchemaObject, type ParamSpec } from '../tools/param-spec.ts';
import type { Pipeline } from './plugin-pipeline.ts';
import type { AccessScope } from '../domain/access-scope.ts';
import { requireOwn } from '../load/require-own.ts';
import { withRequestOrigin, type RequestOrigin } from './request-origin.ts';
import type * as ToolAccess from './tool-access.ts';

/**
 * Whether `scope`'s `tools` list (ADR 0223) names a tool or agent; tool-access.ts is required only for a caller with
 * one: `kbctx search` never loads it (start-up, ADR 0130).
 */
export const toolAllowed = (scope: AccessScope | undefined, name: string): boolean =>
  scope?.tools === undefined ||
  requireOwn<typeof ToolAccess>(import.meta.url, './tool-access.ts').toolAllowed(scope, name);

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

export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();
  private readonly schemas = new Map<string, ToolSchema>();
  private readonly pipeline: Pick<Pipeline, 'toolCall' | 'toolResult'>;

  /** `pipeline`: plugins' `toolCall` (answer or refuse before the tool runs) and `toolResult` taps. */
  constructor(pipeline: Pick<Pipeline, 'toolCall' | 'toolResult'> = {}) {
    this.pipeline = pipeline;
  }

  /** Adds a tool; a later tool with the same name replaces an earlier one (explicit config beats registries). */
  register(tool: Tool): void {
    this.tools.set(tool.name, tool);
    this.schemas.set(tool.name, tool.inputSchema ?? toJsonSchema(tool.params));
  }

  /** `scope`: a caller's token (ADR 0223); a tool outside its `tools` does not exist for it. */
  has(name: string, scope?: AccessScope): boolean {
    return this.tools.has(name) && toolAllowed(scope, name);
  }

  /**
   * not_found for an unknown tool, or one outside `scope`'s `tools` (the same answer, listing only what it may call).
   */
  get(name: string, scope?: AccessScope): Tool {
    const tool = this.tools.get(name);
    // Named here rather than pointing at one surface's listing (REST, MCP and the CLI all raise this).
    if (!tool || !toolAllowed(scope, name)) {
      const names = [...this.tools.keys()].filter((n) => toolAllowed(scope, n));
      throw notFound(`unknown tool '${name}'; available tools: ${names.join(', ')}`);
    }
    return tool;
  }

  /**
   * Built-ins first, then the rest by name; only those `scope` may call. Schemas are computed once, at registration.
   */
  list(scope?: AccessScope): ToolInfo[] {
    return [...this.tools.values()]
      .filter((t) => toolAllowed(scope, t.name))
      .sort((a, b) => Number(b.builtin) - Number(a.builtin) || (a.builtin ? 0 : a.name.localeCompare(b.name)))
      .map((t) => ({
        name: t.name,
        description: t.description,
        builtin: t.builtin,
        readOnly: t.readOnly,
        origin: t.origin,
        parameters: this.schemas.get(t.name)!,
      }));
  }

  /** Validates (bad_request naming the parameter), applies defaults, runs. not_found for an unknown tool. */
  async call(name: string, input: unknown, ctx: ToolCallContext = {}): Promise<unknown> {
    return withRequestOrigin(ctx.origin, () => this.callHere(name, input, ctx));
  }

  private async callHere(name: string, input: unknown, ctx: ToolCallContext): Promise<unknown> {
    const tool = this.get(name);
    const params = validateParams(tool.params, input, tool.inputSchema);
    const { toolCall, toolResult } = this.pipeline;
    if (!toolCall && !toolResult) return tool.run(params, ctx);
    const call = { name, params };
    const early = toolCall ? await toolCall(call) : undefined;
    const result = early !== undefined ? early : await tool.run(params, ctx);
    return toolResult ? toolResult(result, call) : result;
  }
}

const done = (): Promise<void> => Promise.resolve();

/** For surfaces with no channel back to the caller (REST, CLI): every call does nothing. */
export const NO_TOOL_CLIENT: ToolClient = Object.freeze({ log: done, progress: done });

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
