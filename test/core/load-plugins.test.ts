// Loading plugins from config: bundled expansion and `!name`, paths relative to the config root,
// ajv-checked options with key paths, version ranges, duplicates, dependency order and cycles.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Kernel } from '../../core/kernel.ts';
import { applyBundledPlugins, applyConfiguredPlugins } from '../../core/load/load-plugins.ts';
import { expandPluginSpecs } from '../../core/load/plugin-specs.ts';
import type { Plugin } from '../../core/plugin.ts';
import { PerPluginCollector } from '../../core/collector.ts';
import { NO_TOOL_CLIENT } from '../../plugins/tool-registry/api.ts';
import { joinedRegExp } from '../helpers/joined-regexp.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/plugins/', import.meta.url));
const quiet = { logger: () => ({ info() {}, warn() {}, debug() {} }), applyTimeoutMs: 100 };
const bundledPlugin = (name: string): Plugin => ({ name, version: '0.2.0', kbctx: '^0.2', apply() {} });
const BUNDLED = [bundledPlugin('store-x'), bundledPlugin('tools-x'), bundledPlugin('web-x')];

async function load(entries: string[], options: Record<string, Record<string, unknown>> = {}): Promise<Kernel> {
  const kernel = new Kernel(quiet);
  const settings = { entries, options, baseDir: FIXTURES };
  applyBundledPlugins(kernel, BUNDLED, settings);
  await applyConfiguredPlugins(kernel, BUNDLED, settings);
  return kernel;
}
const configError = (pattern: RegExp) => (e: unknown) =>
  (e as { code?: string }).code === 'config_error' && pattern.test((e as Error).message);

describe('plugin specs', () => {
  it('expands bundled in order, drops !names, resolves paths against the config root', () => {
    const specs = expandPluginSpecs(
      ['bundled', '!tools-x', './ok.mjs', '@acme/kbctx-plugin'],
      ['store-x', 'tools-x', 'web-x'],
      '/etc/kb',
    );
    assert.deepEqual(specs, [
      { kind: 'bundled', name: 'store-x' },
      { kind: 'bundled', name: 'web-x' },
      { kind: 'path', file: path.resolve('/etc/kb/ok.mjs'), as: './ok.mjs' },
      { kind: 'package', name: '@acme/kbctx-plugin' },
    ]);
  });

  it('names an inline plugin object by its config file and place; !name drops it like any other', () => {
    const acme = { name: 'acme', version: '1.0.0' };
    const other = { name: 'other', version: '1.0.0' };
    assert.deepEqual(
      expandPluginSpecs(['bundled', acme, other], ['web-x'], '/etc/kb', '/etc/kb/kbctx.config.mjs').slice(1),
      [
        { kind: 'inline', plugin: acme, as: 'kbctx.config.mjs plugins[1]' },
        { kind: 'inline', plugin: other, as: 'kbctx.config.mjs plugins[2]' },
      ],
    );
    assert.deepEqual(expandPluginSpecs(['bundled', acme, '!acme'], ['web-x'], '/etc/kb'), [
      { kind: 'bundled', name: 'web-x' },
    ]);
    assert.throws(
      () => expandPluginSpecs(['bundled', acme, '!acne'], ['web-x'], '/'),
      /"!acne" drops a plugin that is not in the list/,
    );
  });

  it('refuses to drop a plugin that is not in the list', () => {
    assert.throws(
      () => expandPluginSpecs(['bundled', '!wbe-x'], ['web-x'], '/'),
      /"!wbe-x" drops a plugin that is not in the list; bundled plugins: web-x/,
    );
  });
});

describe('loading plugins', () => {
  it('applies bundled, then configured plugins with validated, defaulted options', async () => {
    const kernel = await load(['bundled', '!web-x', './ok.mjs'], { ok: { boost: 2 } });
    assert.deepEqual(
      kernel.plugins().map((p) => [p.name, p.origin]),
      [
        ['store-x', 'bundled'],
        ['tools-x', 'bundled'],
        ['ok', 'path'],
      ],
    );
    const added: unknown[] = [];
    kernel.hooks.tools.call(
      new PerPluginCollector((plugin, t) =>
        added.push(t.call({}, { ...kernel.pluginContext(plugin), client: NO_TOOL_CLIENT })),
      ),
    );
    assert.deepEqual(added, ['hello']);
  });

  it('bad options name the key path, every problem at once', async () => {
    await assert.rejects(
      load(['./ok.mjs'], { ok: { boost: -1, colour: 'red' } }),
      configError(
        joinedRegExp(
          /invalid options for plugin 'ok' \(\[plugin\.ok\]\):\n {2}- /,
          /plugin\.ok\.colour is not a known key\n {2}- plugin\.ok\.boost must be /,
          />= 0/,
        ),
      ),
    );
  });

  it('an options table for a plugin that is not loaded is an error', async () => {
    await assert.rejects(load(['bundled'], { okk: {} }), configError(/plugin\.okk: no loaded plugin is named 'okk'/));
  });

  it('a missing file, an apply that throws, an apply that never resolves: errors naming the plugin', async () => {
    await assert.rejects(
      load(['./nope.mjs']),
      configError(/plugin \.\/nope\.mjs: no such file .*relative to the project folder/),
    );
    await assert.rejects(
      load(['./throws.mjs']),
      configError(/plugin 'throws': apply failed: cannot start: missing token/),
    );
    await assert.rejects(
      load(['./never-resolves.mjs']),
      (e: unknown) =>
        (e as { code?: string }).code === 'timeout' &&
        /plugin 'never-resolves': apply failed: apply did not finish within 0.1 s/.test((e as Error).message),
    );
  });

  it('a kernel API range the kernel does not satisfy is refused', async () => {
    await assert.rejects(
      load(['./old-api.mjs']),
      configError(/plugin 'old-api' .* needs kbctx \^0\.1, but this is kernel API 0\.2\.0/),
    );
  });

  it('a duplicate name, a missing dependency and a dependency cycle are refused', async () => {
    await assert.rejects(load(['./ok.mjs', './ok-copy.mjs']), configError(/plugin 'ok' is loaded twice/));
    await assert.rejects(
      load(['./needs-missing.mjs']),
      configError(/plugin 'needs-missing' needs 'nowhere', which is not loaded/),
    );
    await assert.rejects(
      load(['./cycle-a.mjs', './cycle-b.mjs']),
      configError(/plugin dependency cycle: cycle-a → cycle-b → cycle-a/),
    );
  });

  it('orders plugins after their dependencies; TypeScript plugins load by type stripping', async () => {
    const kernel = await load(['./depends-on-ok.ts', './ok.mjs']);
    assert.deepEqual(
      kernel.plugins().map((p) => p.name),
      ['ok', 'depends-on-ok'],
    ); // no "bundled" entry: no first-party plugins
  });
});

describe('registry plugin files without the registry pin check (ADR 0204)', () => {
  it(
    'refuses a TypeScript or JavaScript file inside a ' + 'configured registry when no pin check was handed in',
    async () => {
      const kernel = new Kernel(quiet);
      const settings = {
        entries: ['./ok.mjs'],
        options: {},
        baseDir: FIXTURES,
        registries: [{ name: 'community', path: FIXTURES }],
      };
      applyBundledPlugins(kernel, BUNDLED, settings);
      await assert.rejects(
        applyConfiguredPlugins(kernel, BUNDLED, settings),
        configError(/ok\.mjs is in registry 'community', and no registry pin check is loaded/),
      );
      assert.equal(kernel.has('ok'), false);
    },
  );

  it('loads a file outside every configured registry as before', async () => {
    const kernel = new Kernel(quiet);
    const settings = {
      entries: ['./ok.mjs'],
      options: {},
      baseDir: FIXTURES,
      registries: [{ name: 'community', path: path.join(FIXTURES, 'elsewhere') }],
    };
    applyBundledPlugins(kernel, BUNDLED, settings);
    await applyConfiguredPlugins(kernel, BUNDLED, settings);
    assert.equal(kernel.has('ok'), true);
  });
});
