// agents-inline's contract entry (ADR 0202): its config section `[agents.inline.<name>]` (Context Harness's name:
// description, tools, system_prompt), the type of an entry as the config holds it, and the accessor; and the agents
// runtime's checkers other plugins share (ADR 0238): an extension's agent spec (the extensions plugin's adapter) and a
// script's resolved prompt (the Lua bridge), required on first call. And the registry itself: the `kbctx.agents`
// service and `agentsOf`, how the surfaces reach it (ADR 0254).
import {
  configError,
  createServiceRef,
  hostService,
  notFound,
  requireOwn,
  sectionOf,
  type Config,
  type ConfigSection,
  type ServiceRef,
} from '../../core/api/plugin.ts';
import type { ServiceHost } from '../tool-registry/api.ts';
import type { AgentRegistry } from './agent-types.ts';
import type * as AgentFromSpec from './agents/agent-from-spec.ts';
import type * as Prompt from './agents/prompt.ts';

export type { AgentSpec } from './agents/agent-from-spec.ts';
export type { Agent, AgentArgument, AgentRegistry, PromptMessage, ResolvedPrompt } from './agent-types.ts';
// The registry's listing in the contract's JSON names (REST, the CLI), formerly core's host-wire.ts (ADR 0249).
export { agentsToWire } from './agent-wire.ts';

/**
 * The `kbctx.agents` service: every plugin's agents in one registry, which this plugin collects from the `agents` hook
 * on first use and again at `boot` (configured plugins', script agents, extension modules' agents join it then).
 */
export interface AgentsService {
  /** The registry, built on the first call; the same object after (a later agent of a name replaces an earlier one). */
  registry(): AgentRegistry;
}

export const agentsService: ServiceRef<AgentsService> = createServiceRef<AgentsService>('kbctx.agents');

/**
 * The host's agent registry, as REST, MCP, the CLI and the library read it. Without this plugin (`"!agents-inline"`)
 * there are none: an agent a plugin adds is a config_error saying why.
 */
export function agentsOf(host: ServiceHost): AgentRegistry {
  if (host.services.has(agentsService)) return host.services.use(agentsService).registry();
  const none = noAgents();
  host.services.use(hostService).collect('agents', (def) => none.add(def, NO_CONTEXT));
  return none;
}

const NO_CONTEXT = (): never => {
  throw new Error('unreachable: no agent is added without the agents-inline plugin');
};

function noAgents(): AgentRegistry {
  const get = (name: string): never => {
    throw notFound(`unknown agent '${name}'; no agents are configured`);
  };
  return {
    add: (def) => {
      throw configError(
        `agent '${def?.name}' needs the agents-inline plugin, which runs every plugin's agents (remove ` +
          `'!agents-inline' from plugins)`,
      );
    },
    list: () => [],
    get,
    resolve: async (name) => get(name),
  };
}

/** An agent spec checked (script_error naming `registerAgent(name)`) and turned into an Agent run under a deadline. */
export const agentFromSpec: typeof AgentFromSpec.agentFromSpec = (...args) =>
  requireOwn<typeof AgentFromSpec>(import.meta.url, './agents/agent-from-spec.ts').agentFromSpec(...args);
/** A resolved prompt as a script or an extension returned it, checked (`system`, tools, messages). */
export const parsePrompt: typeof Prompt.parsePrompt = (...args) =>
  requireOwn<typeof Prompt>(import.meta.url, './agents/prompt.ts').parsePrompt(...args);

/** One `[agents.inline.<name>]` table, as the plugin reads it. */
export interface InlineAgentConfig {
  readonly description: string;
  readonly tools: readonly string[];
  readonly systemPrompt: string;
}

type InlineAgents = Readonly<Record<string, InlineAgentConfig>>;

/** The configured `[agents.inline.<name>]` tables: name → entry. */
export const inlineAgentsOf = (config: Config): InlineAgents =>
  sectionOf<InlineAgents | undefined>(config, 'agents.inline') ?? {};

export const inlineAgentsSection: ConfigSection<InlineAgents> = {
  schema: {
    type: 'object',
    additionalProperties: {
      type: 'object',
      properties: {
        description: { type: 'string', default: '' },
        tools: { type: 'array', items: { type: 'string' }, default: [] },
        system_prompt: { type: 'string' },
      },
      required: ['system_prompt'],
      additionalProperties: false,
    },
  },
  toConfig: (table) =>
    Object.fromEntries(
      Object.entries(table).map(([name, entry]) => {
        const e = entry as Record<string, unknown>;
        return [
          name,
          {
            description: e['description'] as string,
            tools: e['tools'] as string[],
            systemPrompt: e['system_prompt'] as string,
          },
        ];
      }),
    ),
  needs: 'agents:inline',
};
