// agents-inline's contract entry (ADR 0202): its config section `[agents.inline.<name>]` (Context Harness's name:
// description, tools, system_prompt), the type of an entry as the config holds it, and the accessor; and the agents
// runtime's checkers other plugins share (ADR 0238): an extension's agent spec (the extensions plugin's adapter) and a
// script's resolved prompt (the Lua bridge), required on first call.
import { requireOwn, sectionOf, type Config, type ConfigSection } from '../../core/api/plugin.ts';
import type * as AgentFromSpec from './agents/agent-from-spec.ts';
import type * as Prompt from './agents/prompt.ts';

export type { AgentSpec } from './agents/agent-from-spec.ts';
// The registry's listing in the contract's JSON names (REST, the CLI), formerly core's host-wire.ts (ADR 0249).
export { agentsToWire } from './agent-wire.ts';

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
