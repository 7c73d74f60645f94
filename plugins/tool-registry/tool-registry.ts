// The tool registry: every tool plugins add (the built-in search, get and sources from tools-builtin,
// Lua script tools, registry tools). REST (`POST /tools/{name}`, `GET /tools/list`), MCP (`tools/list`,
// `tools/call`) and the CLI (`tool list`) all go through `listTools` / `callTool`, so validation,
// defaults and results are identical on every surface. This plugin builds it for `kbctx.tools` (ADR 0249, 0254).
import {
  notFound,
  type AccessScope,
  type PluginContext,
  type PluginToolDef,
  type ToolHooks,
} from '../../core/api/plugin.ts';
import { withRequestOrigin } from '../../core/api/use-cases.ts';
import { toJsonSchema, validateParams } from './param-spec.ts';
import { toolAllowed } from './api.ts';
import { toolFromPlugin } from './tool-from-plugin.ts';
import type { Tool, ToolCallContext, ToolInfo, ToolRegistry as Registry, ToolSchema } from './registry-types.ts';

export class ToolRegistry implements Registry {
  private readonly tools = new Map<string, Tool>();
  private readonly schemas = new Map<string, ToolSchema>();
  private readonly hooks: ToolHooks;
  private readonly defaultTimeoutSecs: number;

  /**
   * `hooks`: plugins' `toolCall` (answer or refuse before the tool runs) and `toolResult` taps; `defaultTimeoutSecs`:
   * the deadline (30 s, ADR 0250) of a plugin tool with `timeout` or `inputSchema` that names none.
   */
  constructor(hooks: ToolHooks = {}, defaultTimeoutSecs = 30) {
    this.hooks = hooks;
    this.defaultTimeoutSecs = defaultTimeoutSecs;
  }

  /** Adds a tool; a later tool with the same name replaces an earlier one (explicit config beats registries). */
  register(tool: Tool): void {
    this.tools.set(tool.name, tool);
    this.schemas.set(tool.name, tool.inputSchema ?? toJsonSchema(tool.params));
  }

  add(def: PluginToolDef, contextFor: (signal: AbortSignal) => PluginContext, plugin: string): void {
    this.register(toolFromPlugin(def, contextFor, this.defaultTimeoutSecs, plugin));
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
    const { toolCall, toolResult } = this.hooks;
    if (!toolCall && !toolResult) return tool.run(params, ctx);
    const call = { name, params };
    const early = toolCall ? await toolCall(call) : undefined;
    const result = early !== undefined ? early : await tool.run(params, ctx);
    return toolResult ? toolResult(result, call) : result;
  }
}
