// First-party plugin: the Lua bridge. Script connectors, tools and agents (`[connectors.script.*]`,
// `[tools.script.*]`, `[agents.script.*]`) and `.lua` plugins run in the sandboxed Lua runtime
// (ADR 0040), which this plugin opens on first use over the index (`kbctx.index`) with the host's
// `[scripts]` settings (`kbctx.host`). Lua code is imported only when a script or a `.lua` plugin is
// configured. It also adds the script commands (`tool init|test`, `agent init`, `connector init|test`).
import { definePlugin, STAGE } from '../../core/api/plugin.ts';
import { luaRuntimeService, scriptingHost } from './scripting/scripting-service.ts';
import type { ScriptParts } from './script-parts.ts';
import {
  metaTimeoutSecs,
  scriptAgentsSection,
  scriptConnectorSection,
  scriptsSection,
  scriptToolsSection,
} from './api.ts';
import type { ScriptConfig } from './api.ts';

// After the first-party defaults: a script tool or agent replaces any other of the same name, as
// script sections always have (docs/extensions.md "Loading").
const AFTER_DEFAULTS = STAGE.FALLBACK + 1;

/**
 * Tools, then agents, each read in parallel under its own metadata time-out (which covers waiting for
 * a worker): loading ends within the longest tool's plus the longest agent's, with a margin.
 */
function loadingLimitSecs(host: {
  tools: Readonly<Record<string, { timeoutSecs: number }>>;
  agents: Readonly<Record<string, { timeoutSecs: number }>>;
}): number {
  const longest = (sections: Readonly<Record<string, { timeoutSecs: number }>>): number =>
    Math.max(0, ...Object.values(sections).map(metaTimeoutSecs));
  return longest(host.tools) + longest(host.agents) + 10;
}

const plugin = definePlugin({
  name: 'lua-bridge',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: [
    'connector:script',
    'tools:script',
    'agents:script',
    'plugins:.lua',
    'command:connector',
    'command:tool init|test',
    'command:agent init',
  ],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  connectorConfigs: { script: scriptConnectorSection },
  configSections: {
    scripts: scriptsSection,
    'tools.script': scriptToolsSection,
    'agents.script': scriptAgentsSection,
  },
  apply(kernel) {
    const runtime = scriptingHost(kernel);
    kernel.provide(luaRuntimeService, runtime);
    const host = () => runtime;
    kernel.hooks.shutdown.tapPromise('lua-bridge', () => runtime.close());
    let parts: ScriptParts = { tools: [], agents: [] };
    kernel.hooks.createConnector
      .for('script')
      .tapPromise({ name: 'lua-bridge', stage: STAGE.FALLBACK }, async (instance) =>
        (await host().open()).connector(instance.name, instance.options as unknown as ScriptConfig),
      );
    kernel.hooks.boot.tapPromise({ name: 'lua-bridge', timeout: loadingLimitSecs(host()) }, async () => {
      if (Object.keys(host().tools).length + Object.keys(host().agents).length === 0) return;
      const { loadScriptParts } = await import('./script-parts.ts');
      parts = await loadScriptParts(host());
    });
    kernel.hooks.tools.tap({ name: 'lua-bridge', stage: AFTER_DEFAULTS }, (tools) =>
      parts.tools.forEach((t) => tools.add(t)),
    );
    kernel.hooks.agents.tap({ name: 'lua-bridge', stage: AFTER_DEFAULTS }, (agents) =>
      parts.agents.forEach((a) => agents.add(a)),
    );
    kernel.hooks.commands.tapPromise('lua-bridge', async (program) =>
      (await import('./commands/script-commands.ts')).registerScriptCommands(program, kernel, runtime),
    );
    kernel.hooks.resolvePlugin.for('.lua').tapPromise('lua-bridge', async (spec) => {
      const { loadLuaPlugin } = await import('./lua-plugin.ts');
      return loadLuaPlugin(await host().open(), spec);
    });
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
