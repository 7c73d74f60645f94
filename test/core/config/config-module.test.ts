// Config as code (kbctx.config.mjs, ADR 0128) with real module files in a temp folder: the lookup,
// object and function exports, validation by the TOML path's rules and messages, relative paths from
// another working directory, plugin objects kept as they are, and the failures that name the file.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import '../../../registry/bundled.ts'; // the plugins owning [server] and the connector types (ADR 0164)
import { importConfig, loadConfig } from '../../../core/config/load-config.ts';
import { serverConfigOf } from '../../../plugins/transport-http/api.ts';
import { filesystemConnectorsOf } from '../../../plugins/connector-filesystem/api.ts';
import { joinedRegExp } from '../../helpers/joined-regexp.ts';

const root = mkdtempSync(path.join(tmpdir(), 'kbctx-module-'));
after(() => rmSync(root, { recursive: true, force: true }));
const write = (relative: string, text: string): string => {
  const file = path.join(root, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
};
/** importConfig then loadConfig, as the CLI's prepare() and config() do. */
const load = async (options: { configPath?: string; cwd: string; env?: NodeJS.ProcessEnv }) => {
  const env = options.env ?? {};
  return loadConfig({ ...options, env, module: await importConfig({ ...options, env }) });
};
const failure = async (options: { configPath?: string; cwd: string; env?: NodeJS.ProcessEnv }): Promise<string> => {
  try {
    await load(options);
  } catch (error) {
    assert.equal((error as { code?: string }).code, 'config_error', String(error));
    return (error as Error).message;
  }
  assert.fail('expected a config error');
};

describe('kbctx.config.mjs', () => {
  it(
    'is found after config/kbctx.toml; relative paths resolve ' +
      'against its project folder from any working directory',
    async () => {
      const project = path.join(root, 'project');
      write(
        'project/config/kbctx.config.mjs',
        'export default { db: { path: "data/kb.sqlite" }, connectors: { filesystem: { docs: { root: "docs" } } }, ' +
          'server: { bind: "127.0.0.1:7" } };\n',
      );
      const here = await load({ cwd: project });
      assert.deepEqual(
        [here.file, here.db.path, filesystemConnectorsOf(here)['docs']?.root, serverConfigOf(here).bind],
        [
          path.join(project, 'config/kbctx.config.mjs'),
          path.join(project, 'data/kb.sqlite'),
          path.join(project, 'docs'),
          '127.0.0.1:7',
        ],
      );
      const elsewhere = path.join(root, 'elsewhere');
      mkdirSync(elsewhere, { recursive: true });
      const fromFlag = await load({ cwd: elsewhere, configPath: '../project/config/kbctx.config.mjs' });
      assert.deepEqual(
        [fromFlag.db.path, fromFlag.plugins.baseDir],
        [path.join(project, 'data/kb.sqlite'), project],
        '-c from another folder: the same index; plugin paths relative to the project too',
      );
      const fromEnv = await load({
        cwd: elsewhere,
        env: { KBCTX_CONFIG: path.join(project, 'config/kbctx.config.mjs') },
      });
      assert.equal(fromEnv.db.path, path.join(project, 'data/kb.sqlite'), '$KBCTX_CONFIG');
      write('project/config/kbctx.toml', '[server]\nbind = "127.0.0.1:8"\n');
      assert.equal(serverConfigOf(await load({ cwd: project })).bind, '127.0.0.1:8', 'config/kbctx.toml comes first');
      assert.equal(await importConfig({ cwd: project, env: {} }), undefined, 'nothing to import for a TOML config');
    },
  );

  it('a function (or async function) export gets the environment; ${VAR}s expand as in TOML', async () => {
    write(
      'fn/kbctx.config.mjs',
      'export default async ({ env }) => ({ server: { bind: ' +
        'env.BIND }, embedding: { api_key_env: "${KEY_NAME}" } });\n',
    );
    const config = await load({
      cwd: root,
      configPath: 'fn/kbctx.config.mjs',
      env: { BIND: '127.0.0.1:9', KEY_NAME: 'MY_KEY' },
    });
    assert.deepEqual([serverConfigOf(config).bind, config.embedding.extra['api_key_env']], ['127.0.0.1:9', 'MY_KEY']);
  });

  it('validates the tree with the TOML rules and messages, naming the file', async () => {
    write('bad/range.mjs', 'export default { retrieval: { hybrid_alpha: 2 } };\n');
    assert.equal(
      await failure({ cwd: root, configPath: 'bad/range.mjs' }),
      'bad/range.mjs: retrieval.hybrid_alpha must be between 0 and 1',
    );
    write('bad/unknown.mjs', 'export default { serve: {} };\n');
    assert.match(
      await failure({ cwd: root, configPath: 'bad/unknown.mjs' }),
      /^bad\/unknown\.mjs: serve is not a known key/,
    );
    write('bad/entry.mjs', 'export default { plugins: ["bundled", 3] };\n');
    assert.equal(
      await failure({ cwd: root, configPath: 'bad/entry.mjs' }),
      'bad/entry.mjs: plugins.1 must be a plugin name, a path or (in kbctx.config.mjs) a plugin object, got number 3',
    );
  });

  it('a module that throws, has no default export or exports no object: a config error naming the file', async () => {
    const cases: [string, string, RegExp][] = [
      ['throws.mjs', 'throw new Error("boom");\n', /^bad\/throws\.mjs: the config module failed to load: boom$/],
      ['syntax.mjs', 'export default {\n', /^bad\/syntax\.mjs: the config module failed to load: /],
      ['named.mjs', 'export const db = {};\n', /^bad\/named\.mjs: a config module needs a default export/],
      [
        'number.mjs',
        'export default 42;\n',
        joinedRegExp(
          /^bad\/number\.mjs: the default export must be an object with the /,
          /config keys \(or a function returning one\), got number 42$/,
        ),
      ],
      ['array.mjs', 'export default [];\n', /got an array$/],
      ['null.mjs', 'export default async () => null;\n', /got null$/],
      [
        'fn-throws.mjs',
        'export default () => { throw new Error("no key"); };\n',
        /^bad\/fn-throws\.mjs: the default export threw: no key$/,
      ],
    ];
    for (const [name, text, expected] of cases) {
      write(`bad/${name}`, text);
      assert.match(await failure({ cwd: root, configPath: `bad/${name}` }), expected, name);
    }
    assert.match(
      await failure({ cwd: root, configPath: 'bad/missing.mjs' }),
      /^config file not found: bad\/missing\.mjs \(from -c\/--config\)/,
    );
  });

  it('loadConfig alone refuses a module it was not handed (the synchronous path cannot import it)', () => {
    write('sync/kbctx.config.mjs', 'export default {};\n');
    assert.throws(
      () => loadConfig({ cwd: root, configPath: 'sync/kbctx.config.mjs', env: {} }),
      /sync\/kbctx\.config\.mjs is a config module: import it with importConfig\(\) before loadConfig\(\)/,
    );
  });

  it('plugin objects in `plugins` are kept as they are: not expanded, copied or frozen', async () => {
    write(
      'inline/kbctx.config.mjs',
      'const acme = { name: "acme", version: "1.0.0", kbctx: "^0.2", description: "${NOT_EXPANDED}", apply() {} ' +
        '};\nglobalThis.kbctxTestAcme = acme;\nexport default { plugins: ["bundled", acme, "./more.mjs"] };\n',
    );
    const config = await load({ cwd: root, configPath: 'inline/kbctx.config.mjs' });
    const [bundled, inline, more] = config.plugins.entries;
    assert.deepEqual([bundled, more], ['bundled', './more.mjs']);
    const acme = (globalThis as { kbctxTestAcme?: object }).kbctxTestAcme;
    assert.deepEqual(
      [inline === acme, (inline as { description: string }).description, Object.isFrozen(inline)],
      [true, '${NOT_EXPANDED}', false],
    );
    assert.ok(Object.isFrozen(config.plugins.entries), 'the list itself is frozen like every config value');
  });

  it('an edited module is imported anew by the next load', async () => {
    const file = write('edit/kbctx.config.mjs', 'export default { server: { bind: "127.0.0.1:1" } };\n');
    assert.equal(serverConfigOf(await load({ cwd: root, configPath: 'edit/kbctx.config.mjs' })).bind, '127.0.0.1:1');
    writeFileSync(file, 'export default { server: { bind: "127.0.0.1:2" } };\n');
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    assert.equal(serverConfigOf(await load({ cwd: root, configPath: 'edit/kbctx.config.mjs' })).bind, '127.0.0.1:2');
  });
});
