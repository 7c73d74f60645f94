// The agents as the surfaces see them: named prompts for MCP clients, REST (`/agents/list`, `/agents/{name}/prompt`)
// and the CLI (`agent list/test`), and the registry they read (`agentsOf`). Types only, moved from core's
// `app/agents.ts` (ADR 0254): the kernel's `agents` hook names only `PluginAgentDef` and its prompt.
import type { AccessScope, PluginAgentDef, PluginContext, PromptContentBlock } from '../../core/api/plugin.ts';

export interface AgentArgument {
  name: string;
  description: string;
  required: boolean;
}

export interface PromptMessage {
  role: 'user' | 'assistant';
  /** Text, or (from JavaScript agents) an MCP content block such as an image or an embedded resource. */
  content: string | PromptContentBlock;
}

export interface ResolvedPrompt {
  system: string;
  tools: string[];
  messages: PromptMessage[];
}

export interface Agent {
  readonly name: string;
  readonly description: string;
  readonly tools: readonly string[];
  /**
   * `toml` for inline agents, `lua` for script agents, `extension` for compiled extension agents (a plugin may name
   * another).
   */
  readonly source: string;
  readonly arguments: readonly AgentArgument[];
  /** Builds the prompt. Arguments are already checked for required ones. */
  resolve(args: Record<string, unknown>, ctx: { signal?: AbortSignal | undefined }): Promise<ResolvedPrompt>;
}

/** The agents every plugin added through the `agents` collector; `scope`: a caller's token (ADR 0223). */
export interface AgentRegistry {
  /**
   * Adds a plugin's agent, checked (a script_error naming `agents.add(name)`), its `resolve` given the plugin's ctx
   * under a deadline; a later agent of the same name replaces an earlier one (the taps' stages decide).
   */
  add(def: PluginAgentDef, contextFor: (signal: AbortSignal) => PluginContext): void;
  /** By name; only those `scope` may use: its `tools` list names agents too. */
  list(scope?: AccessScope): Agent[];
  /** not_found for an unknown agent or one outside `scope` (the same answer, listing only what it may use). */
  get(name: string, scope?: AccessScope): Agent;
  /**
   * Checks the arguments (bad_request naming the first unknown or missing one, listing the known ones for an unknown
   * one), then resolves.
   */
  resolve(
    name: string,
    args: unknown,
    ctx?: { signal?: AbortSignal | undefined; scope?: AccessScope | undefined },
  ): Promise<ResolvedPrompt>;
}
