// First-party plugin: the inline agents of the config (`[agents.inline.<name>]`: description, tools,
// system_prompt), added through the `agents` collector as MCP prompts and REST agents. It owns the section (api.ts).
import { definePlugin, hostService, STAGE } from '../../core/api/plugin.ts';
import { inlineAgentsOf, inlineAgentsSection } from './api.ts';

const plugin = definePlugin({
  name: 'agents-inline',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['agents:inline'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  configSections: { 'agents.inline': inlineAgentsSection },
  apply(kernel) {
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
