// Loading extension modules from real files: package names resolved from the config folder, order and
// replacement, and the failures that leave a module out (invalid definitions, an init that never ends).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { Kernel } from '../../../core/kernel.ts';
import { PerPluginCollector } from '../../../core/collector.ts';
import type { PluginToolDef } from '../../../core/tools/part-defs.ts';
import type { ExtensionDeps } from '../../../plugins/extensions/api.ts';
import { loadExtensions } from '../../../plugins/extensions/load-extensions.ts';
import { NO_TOOL_CLIENT } from '../../../plugins/tool-registry/api.ts';
// The bundled set declares the built-in connector types an extension may not register (ADR 0192).
import '../../../registry/bundled.ts';
import { joinedRegExp } from '../../helpers/joined-regexp.ts';

let dir: string;
const write = (rel: string, text: string): void => {
  mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  writeFileSync(path.join(dir, rel), text);
};
const deps: ExtensionDeps = {
  version: 'test',
  context: { search: () => Promise.resolve({}), get: () => Promise.resolve({}), sources: () => Promise.resolve({}) },
  reservedTools: new Set(['search']),
  warn: () => {},
};

before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'kbctx-ext-load-'));
  write(
    'node_modules/@acme/kbctx-jira/package.json',
    JSON.stringify({ name: '@acme/kbctx-jira', type: 'module', exports: { '.': { default: './main.js' } } }),
  );
  write(
    'node_modules/@acme/kbctx-jira/main.js',
    "export default (kbctx) => kbctx.registerTool({ name: 'jira', " +
      "description: 'from a package', execute: () => 'v1' });\n",
  );
  write(
    'conf/ext/override.mjs',
    'export default async (kbctx) => { await Promise.resolve(); ' +
      "kbctx.registerTool({ name: 'jira', execute: () => 'v2' }); };\n",
  );
  write(
    'conf/ext/git.mjs',
    "export default (kbctx) => kbctx.registerConnector({ type: 'git', scan: function* () {} });\n",
  );
  write('conf/ext/hangs.mjs', 'export default () => new Promise(() => {});\n');
  write(
    'conf/ext/bad-params.mjs',
    "export default (kbctx) => kbctx.registerTool({ name: 'p', parameters: [{ name: 'x', type: 'date' }], " +
      'execute: () => 1 });\n',
  );
});
after(() => rmSync(dir, { recursive: true, force: true }));

it(
  'resolves package names from the config folder and paths ' +
    'against it; each module is a plugin tapping `tools`, in order',
  async () => {
    const loaded = await loadExtensions(
      { modules: ['@acme/kbctx-jira', './ext/override.mjs'], baseDir: path.join(dir, 'conf'), timeoutSecs: 5 },
      deps,
    );
    assert.deepEqual(loaded.failures, []);
    assert.deepEqual(
      // No hand-written `provides`: `kbctx plugins` derives what each adds (ADR 0180).
      loaded.plugins.map((p) => [p.plugin.name, p.plugin.provides, path.relative(dir, p.file)]),
      [
        ['extension:acme-kbctx-jira', undefined, 'node_modules/@acme/kbctx-jira/main.js'],
        ['extension:override', undefined, 'conf/ext/override.mjs'],
      ],
    );
    const kernel = new Kernel();
    for (const { plugin, file } of loaded.plugins) await kernel.apply(plugin, {}, 'path', file);
    const added: [string, PluginToolDef][] = [];
    kernel.hooks.tools.call(new PerPluginCollector<PluginToolDef>((plugin, def) => void added.push([plugin, def])));
    assert.deepEqual(
      added.map(([plugin, d]) => [plugin, d.name, d.description]),
      [
        ['extension:acme-kbctx-jira', 'jira', 'from a package'],
        ['extension:override', 'jira', 'Extension tool: jira'],
      ],
    );
    assert.equal(
      await added[1]![1].call({}, { ...kernel.pluginContext('extension:override'), client: NO_TOOL_CLIENT }),
      'v2',
    );
  },
);

it('reports invalid definitions, a missing package and an init past its deadline, with the path', async () => {
  const loaded = await loadExtensions(
    {
      modules: ['./ext/git.mjs', './ext/bad-params.mjs', '@acme/missing', './ext/hangs.mjs'],
      baseDir: path.join(dir, 'conf'),
      timeoutSecs: 0.2,
    },
    deps,
  );
  assert.deepEqual(loaded.plugins, []);
  const messages = loaded.failures.map((f) => `${f.label} | ${f.message.replace(dir, '<dir>')}`);
  assert.equal(
    messages[0],
    'extension:./ext/git.mjs | <dir>/conf/ext/git.mjs: registerConnector("git"): `git` is a built-in connector type',
  );
  assert.match(
    messages[1]!,
    joinedRegExp(
      /^extension:\.\/ext\/bad-params\.mjs \| <dir>\/conf\/ext\/bad-params\.mjs: /,
      /tool:p: tool\.parameters\[1\]: type must be one of string, integer/,
    ),
  );
  assert.match(messages[2]!, /^extension:@acme\/missing \| @acme\/missing: Cannot find module '@acme\/missing'/);
  assert.equal(
    messages[3],
    'extension:./ext/hangs.mjs | <dir>/conf/ext/hangs.mjs: extension hangs.mjs timed out after 0.2 s',
  );
});

it(
  "registerTool is an adapter onto tools.add: the declared schema and deadline pass through, and another plugin's " +
    'tool of the same name wins',
  async () => {
    write(
      'conf/ext/schema.mjs',
      "export default (kbctx) => kbctx.registerTool({ name: 'jira', timeout: 3, readOnly: true, parameters: { " +
        "type: 'object', properties: { key: { type: 'string' } } }, execute: ({ key }) => `ext:${key}` });\n",
    );
    const loaded = await loadExtensions(
      { modules: ['./ext/schema.mjs'], baseDir: path.join(dir, 'conf'), timeoutSecs: 5 },
      deps,
    );
    assert.deepEqual(loaded.failures, []);
    const kernel = new Kernel();
    // A plugin applied before the module adds `jira` too (at the default stage): the module's yields to it.
    await kernel.apply(
      {
        name: 'acme',
        version: '1.0.0',
        kbctx: '^0.2',
        apply: (k) =>
          void k.hooks.tools.tap('acme', (tools) => tools.add({ name: 'jira', params: [], call: () => 'acme' })),
      },
      {},
      'path',
      'acme.mjs',
    );
    for (const { plugin, file } of loaded.plugins) await kernel.apply(plugin, {}, 'path', file);
    const added: [string, PluginToolDef][] = [];
    kernel.hooks.tools.call(new PerPluginCollector<PluginToolDef>((plugin, def) => void added.push([plugin, def])));
    assert.deepEqual(
      added.map(([plugin]) => plugin),
      ['extension:schema', 'acme'],
      'the module taps first, so a later add of the same name replaces it',
    );
    const [, def] = added[0]!;
    assert.deepEqual(
      [def.inputSchema, def.timeout, def.readOnly],
      [{ type: 'object', properties: { key: { type: 'string' } } }, 3, true],
    );
    // A tool without its own `timeout` gets `[extensions] timeout` (here 5), not the host's default.
    write('conf/ext/plain.mjs', "export default (kbctx) => kbctx.registerTool({ name: 'plain', execute: () => 1 });\n");
    const plain = await loadExtensions(
      { modules: ['./ext/plain.mjs'], baseDir: path.join(dir, 'conf'), timeoutSecs: 5 },
      deps,
    );
    const plainKernel = new Kernel();
    for (const { plugin, file } of plain.plugins) await plainKernel.apply(plugin, {}, 'path', file);
    const plainDefs: PluginToolDef[] = [];
    plainKernel.hooks.tools.call(new PerPluginCollector<PluginToolDef>((_plugin, d) => void plainDefs.push(d)));
    assert.deepEqual(
      plainDefs.map((d) => [d.name, d.timeout]),
      [['plain', 5]],
    );
    assert.equal(
      await def.call({ key: 'K-1' }, { ...kernel.pluginContext('extension:schema'), client: NO_TOOL_CLIENT }),
      'ext:K-1',
    );
  },
);
