// ADR 0179: `[scripts]`, `[tools.script.*]` and `[agents.script.*]` are the Lua bridge's sections (its
// JSON Schemas), Context Harness's names kept; errors name the key path; the published schema has them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';
import '../../../registry/bundled.ts';
import { parseConfig } from '../../../core/config/load-config.ts';
import { bundledSections } from '../../../core/config/plugin-sections.ts';
import { KbctxError } from '../../../core/domain/errors.ts';
import { REPO_ROOT } from '../../helpers/workspace.ts';
import { scriptAgentsOf, scriptToolsOf, scriptsConfigOf } from '../../../plugins/lua-bridge/api.ts';
import { inlineAgentsOf } from '../../../plugins/agents-inline/api.ts';

const load = (toml: string) => parseConfig(toml, { file: 'config/kbctx.toml', cwd: '/work', env: { JIRA: 'x' } });
const message = (toml: string): string => {
  try {
    load(toml);
  } catch (error) {
    assert.ok(error instanceof KbctxError && error.code === 'config_error', String(error));
    return error.message;
  }
  return assert.fail('expected a config error');
};

it("the sections are lua-bridge's", () => {
  const owned = bundledSections().sections;
  for (const name of ['scripts', 'tools.script', 'agents.script'])
    assert.equal(owned.get(name)?.plugin, 'lua-bridge', name);
});

it(
  'they load as before: paths resolved, timeouts defaulted, other ' +
    'keys for the script, env_allow joined by referenced variables',
  () => {
    const config = load(
      '[scripts]\nenv_allow = ["HOME"]\n[tools.script.t]\npath = "tools/t.lua"\nurl = "${JIRA}"\n' +
        '[agents.script.a]\npath = "/abs/a.lua"\ntimeout = 5\n[agents.inline.i]\nsystem_prompt = "p"\n',
    );
    assert.deepEqual(scriptToolsOf(config), { t: { path: '/work/tools/t.lua', timeoutSecs: 30, extra: { url: 'x' } } });
    assert.deepEqual(scriptAgentsOf(config), { a: { path: '/abs/a.lua', timeoutSecs: 5, extra: {} } });
    assert.equal(inlineAgentsOf(config)['i']?.systemPrompt, 'p');
    assert.deepEqual(scriptsConfigOf(config).envAllow, ['HOME', 'JIRA']);
  },
);

it('errors name the key path', () => {
  assert.equal(
    message('[agents.inline.i]\ntools = ["search"]\n'),
    "config/kbctx.toml: agents.inline.i.system_prompt is required (checked by plugin 'agents-inline')",
  );
  assert.equal(
    message('[tools.script.t]\ntimeout = 5\n'),
    "config/kbctx.toml: tools.script.t.path is required (checked by plugin 'lua-bridge')",
  );
  assert.equal(
    message('[agents.script.a]\npath = "a.lua"\ntimeout = 0\n'),
    "config/kbctx.toml: agents.script.a.timeout must be greater than 0 (checked by plugin 'lua-bridge')",
  );
  assert.match(message('[scripts]\nenv_allow = "HOME"\n'), /^config\/kbctx\.toml: scripts\.env_allow must be an array/);
  assert.match(message('[tools.other.t]\npath = "x"\n'), /^config\/kbctx\.toml: tools\.other is not a known key/);
});

it("config/kbctx.schema.json has them, as the Lua bridge's schemas", () => {
  const { properties } = JSON.parse(readFileSync(path.join(REPO_ROOT, 'config', 'kbctx.schema.json'), 'utf8')) as {
    properties: Record<string, { properties: Record<string, { additionalProperties?: { required?: string[] } }> }>;
  };
  assert.ok(properties['scripts']?.properties['env_allow']);
  assert.deepEqual(properties['tools']?.properties['script']?.additionalProperties?.required, ['path']);
  assert.deepEqual(properties['agents']?.properties['script']?.additionalProperties?.required, ['path']);
  assert.ok(properties['agents']?.properties['inline']);
});
