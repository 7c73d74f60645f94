// The agent registry: named prompts for MCP clients, REST (`/agents/list`, `/agents/{name}/prompt`), MCP
// (`prompts/list`, `prompts/get`) and the CLI (`agent list/test`). Every plugin's agents (inline ones from config, Lua
// script agents, compiled extensions') reach it through the host's `agents` collector; this plugin provides it as the
// `kbctx.agents` service (ADR 0238).
import {
  badRequest,
  notFound,
  type AccessScope,
  type PluginAgentDef,
  type PluginContext,
} from '../../../core/index.ts';
import { checkLength, checkShape, toolAllowed } from '../../tool-registry/api.ts';
import { agentFromPlugin } from './agent-from-spec.ts';
import type { Agent, AgentRegistry, ResolvedPrompt } from '../agent-types.ts';

/** `defaultTimeoutSecs`: a plugin agent's deadline unless its def sets `timeout` (30 s; ADR 0250). */
export function createAgentRegistry(defaultTimeoutSecs: number): AgentRegistry {
  const agents = new Map<string, Agent>();
  const get = (name: string, scope?: AccessScope): Agent => {
    const agent = agents.get(name);
    if (!agent || !toolAllowed(scope, name)) {
      const names = [...agents.keys()].filter((n) => toolAllowed(scope, n));
      throw notFound(
        `unknown agent '${name}'; ` +
          `${names.length === 0 ? 'no agents are configured' : `available agents: ${names.join(', ')}`}`,
      );
    }
    return agent;
  };
  return {
    add(def: PluginAgentDef, contextFor: (signal: AbortSignal) => PluginContext): void {
      const agent = agentFromPlugin(def, contextFor, defaultTimeoutSecs);
      agents.set(agent.name, agent);
    },
    list: (scope) =>
      [...agents.values()].filter((a) => toolAllowed(scope, a.name)).sort((a, b) => a.name.localeCompare(b.name)),
    get,
    resolve: async (name, args, ctx = {}) => resolveAgent(get(name, ctx.scope), args, ctx),
  };
}

/**
 * Checks the arguments (bad_request naming the first unknown or missing one, listing the known ones for an unknown
 * one), then resolves.
 */
async function resolveAgent(
  agent: Agent,
  args: unknown,
  ctx: { signal?: AbortSignal | undefined },
): Promise<ResolvedPrompt> {
  const name = agent.name;
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
