// First-party plugin: the agents runtime — the registry every plugin's agents are collected into, their checks,
// deadlines and prompts (`agents/`, the `kbctx.agents` service; ADR 0238) — and the inline agents of the config
// (`[agents.inline.<name>]`: description, tools, system_prompt), added through the `agents` collector as MCP prompts
// and REST agents. It owns the section (api.ts), and collects the `agents` hook itself (ADR 0254).
import {
  collectedRegistry,
  DEFAULT_CALL_TIMEOUT_SECS,
  definePlugin,
  hostService,
  requireOwn,
  STAGE,
} from '../../core/api/plugin.ts';
import { agentsService, inlineAgentsOf, inlineAgentsSection } from './api.ts';
// Required when the host first builds its agent registry (`kbctx agent`, a server), not with this index (ADR 0130).
import type * as Registry from './agents/agent-registry.ts';
import type { AgentRegistry } from './agent-types.ts';

const plugin = definePlugin({
  name: 'agents-inline',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['agents:inline'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  configSections: { 'agents.inline': inlineAgentsSection },
  apply(kernel) {
    // A later agent of the same name replaces an earlier one: the taps' stages decide.
    const registry = collectedRegistry(
      kernel,
      { plugin: 'agents-inline', hook: 'agents' },
      (): AgentRegistry =>
        requireOwn<typeof Registry>(import.meta.url, './agents/agent-registry.ts').createAgentRegistry(
          DEFAULT_CALL_TIMEOUT_SECS,
        ),
      (into, def, { contextFor }) => into.add(def, contextFor),
    );
    kernel.provide(agentsService, { registry });
    kernel.hooks.agents.tap({ name: 'agents-inline', stage: STAGE.FALLBACK }, (agents) => {
      const host = kernel.use(hostService);
      for (const [name, section] of Object.entries(inlineAgentsOf(host.config))) {
        // Fails the agent (not the listing) when its section uses an unset `${VAR}`.
        const guard = host.check(`agents.inline.${name}`);
        agents.add({
          name,
          description: section.description,
          tools: [...section.tools],
          arguments: [],
          source: 'toml',
          resolve: async () => {
            guard?.();
            return { system: section.systemPrompt, tools: [...section.tools], messages: [] };
          },
        });
      }
    });
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
