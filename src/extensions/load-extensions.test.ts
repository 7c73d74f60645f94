// Loading extension modules from real files: package names resolved from the config folder, order and
// replacement, and the failures that leave a module out (invalid definitions, an init that never ends).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { loadExtensions } from './load-extensions.ts';

let dir: string;
const write = (rel: string, text: string): void => {
  mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  writeFileSync(path.join(dir, rel), text);
};
const deps = {
  version: 'test',
  context: { search: () => Promise.resolve({}), get: () => Promise.resolve({}), sources: () => Promise.resolve({}) },
  reservedTools: new Set(['search']),
};

before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'lore-ext-load-'));
  write('node_modules/@acme/lore-jira/package.json', JSON.stringify({ name: '@acme/lore-jira', type: 'module', exports: { '.': { default: './main.js' } } }));
  write('node_modules/@acme/lore-jira/main.js', "export default (lore) => lore.registerTool({ name: 'jira', description: 'from a package', execute: () => 'v1' });\n");
  write('conf/ext/override.mjs', "export default async (lore) => { await Promise.resolve(); lore.registerTool({ name: 'jira', execute: () => 'v2' }); };\n");
  write('conf/ext/git.mjs', "export default (lore) => lore.registerConnector({ type: 'git', scan: function* () {} });\n");
  write('conf/ext/hangs.mjs', 'export default () => new Promise(() => {});\n');
  write('conf/ext/bad-params.mjs', "export default (lore) => lore.registerTool({ name: 'p', parameters: [{ name: 'x', type: 'date' }], execute: () => 1 });\n");
});
after(() => rmSync(dir, { recursive: true, force: true }));

it('resolves package names from the config folder and paths against it; later registrations replace earlier ones', async () => {
  const loaded = await loadExtensions({ modules: ['@acme/lore-jira', './ext/override.mjs'], baseDir: path.join(dir, 'conf'), timeoutSecs: 5 }, deps);
  assert.deepEqual(loaded.failures, []);
  assert.deepEqual(loaded.tools.map((t) => [t.name, t.description]), [['jira', 'from a package'], ['jira', 'Extension tool: jira']]);
  assert.equal(await loaded.tools[1]!.run({}, {}), 'v2');
});

it('reports invalid definitions, a missing package and an init past its deadline, with the path', async () => {
  const loaded = await loadExtensions(
    { modules: ['./ext/git.mjs', './ext/bad-params.mjs', '@acme/missing', './ext/hangs.mjs'], baseDir: path.join(dir, 'conf'), timeoutSecs: 0.2 },
    deps,
  );
  assert.deepEqual(loaded.tools, []);
  assert.equal(loaded.connectors.size, 0);
  const messages = loaded.failures.map((f) => `${f.label} | ${f.message.replace(dir, '<dir>')}`);
  assert.equal(messages[0], 'extension:./ext/git.mjs | <dir>/conf/ext/git.mjs: registerConnector("git"): `git` is a built-in connector type');
  assert.match(messages[1]!, /^extension:\.\/ext\/bad-params\.mjs \| <dir>\/conf\/ext\/bad-params\.mjs: tool:p: tool\.parameters\[1\]: type must be one of string, integer/);
  assert.match(messages[2]!, /^extension:@acme\/missing \| @acme\/missing: Cannot find module '@acme\/missing'/);
  assert.equal(messages[3], 'extension:./ext/hangs.mjs | <dir>/conf/ext/hangs.mjs: extension hangs.mjs timed out after 0.2 s');
});
