// The agent registry: named prompts for MCP clients. Inline agents come from config; script agents
// (Lua) and registry agents register through the same interface. REST (`/agents/list`,
// `/agents/{name}/prompt`), MCP (`prompts/list`, `prompts/get`) and the CLI (`agent list/test`) use it.
import { badRequest, notFound } from '../domain/errors.ts';
import { checkShape, checkLength } from '../tools/param-bounds.ts';
import type { AccessScope } from '../domain/access-scope.ts';
import type { PromptContentBlock } from './part-values/content-block.ts';
import { toolAllowed } from './tools.ts';

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

export class AgentRegistry {
  private readonly agents = new Map<string, Agent>();

  register(agent: Agent): void {
    this.agents.set(agent.name, agent);
  }

  /** By name; only those `scope` (a caller's token, ADR 0223) may use: its `tools` list names agents too. */
  list(scope?: AccessScope): Agent[] {
    return [...this.agents.values()]
      .filter((a) => toolAllowed(scope, a.name))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** not_found for an unknown agent or one outside `scope` (the same answer, listing only what it may use). */
  get(name: string, scope?: AccessScope): Agent {
    const agent = this.agents.get(name);
    if (!agent || !toolAllowed(scope, name)) {
      const names = [...this.agents.keys()].filter((n) => toolAllowed(scope, n));
      throw notFound(
        `unknown agent '${name}'; ${names.length === 0 ? 'no agents are configured' : `available agents: ${names.join(', ')}`}`,
      );
    }
    return agent;
  }

  /**
   * Checks the arguments (bad_request naming the first unknown or missing one, listing the known
   * ones for an unknown one), then resolves.
   */
  async resolve(
    name: string,
    args: unknown,
    ctx: { signal?: AbortSignal | undefined; scope?: AccessScope | undefined } = {},
  ): Promise<ResolvedPrompt> {
    const agent = this.get(name, ctx.scope);
    if (args === null || typeof args !== 'object' || Array.isArray(args))
      throw badRequest('agent arguments must be a JSON object');
    const record = args as Record<string, unknown>;
    checkShape(record);
    for (const [key, value] of Object.entries(record)) if (typeof value === 'string') checkLength(key, value);
    const known = agent.arguments.map((a) => a.name);
    const unknown = Object.keys(record).find((key) => !known.includes(key));
    if (unknown !== undefined) {
      const hint = known.length === 0 ? 'it takes no arguments' : `known arguments: ${known.join(', ')}`;
      throw badRequest(`unknown argument '${unknown}' for agent '${name}'; ${hint}`, { parameter: unknown });
    }
    for (const a of agent.arguments) {
      if (a.required && (record[a.name] === undefined || record[a.name] === null || record[a.name] === '')) {
        throw badRequest(`missing required argument '${a.name}' for agent '${name}'`, { parameter: a.name });
      }
    }
    return agent.resolve(record, ctx);
  }
}
