// ADR 0192: core/config names no plugin. A bundled plugin's sections (a top-level one, a `[tools.<form>]` or
// `[agents.<form>]` one, a connector type) are placed where their names say, read through `sectionOf`/`connectorsOf`,
// an unset `${VAR}` inside one named entry fails only that entry, and a section's `needs` is what the plugin loader
// checks, all from the declarations alone.
import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { BUNDLED_PLUGINS } from '../../../registry/bundled.ts';
import { registerConfigSections } from '../../../core/config/plugin-sections.ts';
import { parseConfig } from '../../../core/config/load-config.ts';
import { connectorsOf, sectionOf } from '../../../core/config/sections-of.ts';
import type { ConfigSection, PluginMeta } from '../../../core/api/plugin.ts';

const named: ConfigSection<Record<string, { url: string; seen: readonly string[] }>> = {
  schema: { type: 'object', additionalProperties: { type: 'object', properties: { url: { type: 'string' } } } },
  toConfig: (table, at) =>
    Object.fromEntries(
      Object.entries(table).map(([k, v]) => [k, { ...(v as { url: string }), seen: at.referencedEnv }]),
    ),
  needs: 'tools:demo',
};
const demo: PluginMeta = {
  name: 'demo',
  version: '0.0.0',
  kbctx: '^0.2',
  configSections: {
    banner: { schema: { type: 'object', properties: { text: { type: 'string', default: 'hi' } } } },
    'tools.demo': named,
    'agents.demo': { ...named, needs: 'agents:demo' },
  },
  connectorConfigs: { feed: { schema: { type: 'object', properties: { url: { type: 'string' } } } } },
};

after(() => registerConfigSections(BUNDLED_PLUGINS));

const parse = (text: string, env: NodeJS.ProcessEnv = {}) => parseConfig(text, { file: 'k.toml', cwd: '/w', env });

it("places a plugin's sections by their names and hands its toConfig the referenced variables", () => {
  registerConfigSections([demo]);
  const config = parse(
    '[tools.demo.a]\nurl = "${A}"\n[agents.demo.b]\nurl = "x"\n[connectors.feed.main]\nurl = "u"\n',
    {
      A: 'a',
    },
  );
  assert.deepEqual(sectionOf(config, 'banner'), { text: 'hi' });
  assert.deepEqual(sectionOf(config, 'tools.demo'), { a: { url: 'a', seen: ['A'] } });
  assert.deepEqual(sectionOf(config, 'agents.demo'), { b: { url: 'x', seen: ['A'] } });
  assert.deepEqual(connectorsOf(config, 'feed'), { main: { url: 'u', sync_interval: undefined } });
  assert.deepEqual(Object.keys(config.connectors), ['feed'], 'the owned types, none named by the kernel');
  assert.deepEqual(config.plugins.needs, [
    { section: '[tools.demo.a]', provides: 'tools:demo' },
    { section: '[agents.demo.b]', provides: 'agents:demo' },
  ]);
});

it('an unset ${VAR} in one [tools.<form>.<name>] entry is deferred to that entry', () => {
  registerConfigSections([demo]);
  const config = parse('[tools.demo.a]\nurl = "${MISSING}"\n');
  assert.deepEqual(config.unsetEnv, { 'tools.demo.a': [{ key: 'tools.demo.a.url', variable: 'MISSING' }] });
  assert.throws(() => parse('[banner]\ntext = "${MISSING}"\n'), /banner\.text uses \$\{MISSING\}/);
});
