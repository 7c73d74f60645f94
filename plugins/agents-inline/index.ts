// First-party plugin: the inline agents of the config (`[agents.inline.<name>]`: description, tools,
// system_prompt), added through the `agents` collector as MCP prompts and REST agents.
import { definePlugin, STAGE, inlineAgentsService } from '../../core/api/plugin.ts';

const plugin = definePlugin({
  name: 'agents-inline',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['agents:inline'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    kernel.hooks.agents.tap({ name: 'agents-inline', stage: STAGE.FALLBACK }, (agents) => {
      const { agents: sections, check } = kernel.use(inlineAgentsService);
      for (const [name, section] of Object.entries(sections)) {
        const guard = check(name);
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
