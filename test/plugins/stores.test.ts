// The store plugins (store-sqlite, store-postgres, store-lancedb) and `[db] engine`: the engine a config selects is
// opened by the plugin tapping createStore.for(engine); a dropped or unknown one is a config error
// naming the engine and the loaded store plugins; a third-party store plugin is selected by engine.
import '../../registry/bundled.ts'; // the bundled plugin set (core/app/bundled-set.ts)
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { parse as parseToml } from 'smol-toml';
import { openKbctx, type Kbctx } from '../../core/app/compose.ts';
import { parseConfigTree } from '../../core/config/load-config.ts';
import { REPO_ROOT, Workspace } from '../helpers/workspace.ts';
import { joinedRegExp } from '../helpers/joined-regexp.ts';
import { toolsOf } from '../../plugins/tool-registry/api.ts';

const ws = new Workspace('kbctx-stores-');
after(() => ws.cleanup());
const WRAPPED = `${REPO_ROOT}test/fixtures/plugins/wrapped-store.ts`;
const PG_URL = 'postgres://kbctx:secret@127.0.0.1:1/kb';

const open = (toml: string): Kbctx =>
  openKbctx(parseConfigTree(parseToml(toml), { file: 'kbctx.toml', cwd: ws.dir, env: {} }), {});
const configError = (pattern: RegExp) => (e: unknown) =>
  (e as { code?: string }).code === 'config_error' && pattern.test((e as Error).message);

describe('the bundled store plugins', () => {
  it('store-sqlite opens the default engine; both are listed with the hook they tap', async () => {
    const kbctx = open('[db]\npath = "default.sqlite"\n');
    try {
      assert.equal(kbctx.index.engine, 'SQLite');
      assert.equal((await kbctx.store.counts()).documents, 0);
      assert.ok(existsSync(ws.path('default.sqlite')));
      const hooks = Object.fromEntries(kbctx.kernel.plugins().map((p) => [p.name, p.hooks]));
      assert.deepEqual(hooks['store-sqlite'], ['createStore.for("sqlite")']);
      assert.deepEqual(hooks['store-postgres'], ['createStore.for("postgres")']);
    } finally {
      await kbctx.close();
    }
  });

  it('store-lancedb opens engine "lancedb" at [db] path, LanceDB loaded when the store opens', async () => {
    const kbctx = open('[db]\nengine = "lancedb"\npath = "kb.lance"\n');
    try {
      assert.equal(kbctx.index.engine, 'LanceDB');
      assert.equal(kbctx.store.generation(), 'opening');
      assert.equal((await kbctx.store.counts()).documents, 0);
      assert.ok(existsSync(ws.path('kb.lance/kb.lance')), 'the table folder');
      const hooks = Object.fromEntries(kbctx.kernel.plugins().map((p) => [p.name, p.hooks]));
      assert.deepEqual(hooks['store-lancedb'], ['createStore.for("lancedb")']);
    } finally {
      await kbctx.close();
    }
  });

  it('store-postgres opens [db] url without loading the driver first: the store forwards to it', async () => {
    const kbctx = open(`[db]\npath = "pg/kb.sqlite"\nurl = "${PG_URL}"\n`);
    assert.equal(kbctx.index.engine, 'PostgreSQL');
    assert.equal(kbctx.store.path, 'postgres://kbctx@127.0.0.1:1/kb', 'the password is not shown');
    assert.equal(kbctx.store.generation(), 'opening');
    await kbctx.close(); // nothing listens on port 1: closing a store that never opened
  });

  it(
    'dropping store-postgres with a postgres url is a config ' + 'error naming the plugin and the loaded store plugins',
    () => {
      assert.throws(
        () => open(`plugins = ["bundled", "!store-postgres"]\n[db]\nurl = "${PG_URL}"\n`),
        configError(
          joinedRegExp(
            /^db\.engine = "postgres": the store plugin store-postgres provides it and is not loaded \(check /,
            /plugins in the config\); loaded store plugins: store-sqlite \(sqlite\), store-lancedb \(lancedb\)$/,
          ),
        ),
      );
    },
  );

  it('dropping store-sqlite leaves no default engine, nor SQLite targets for `migrate --to`', async () => {
    assert.throws(
      () => open('plugins = ["bundled", "!store-sqlite"]\n'),
      configError(
        joinedRegExp(
          /db\.engine = "sqlite": the store plugin store-sqlite provides it and is not /,
          /loaded.*loaded store plugins: store-postgres \(postgres\), store-lancedb \(lancedb\)$/,
        ),
      ),
    );
    const kbctx = open(`plugins = ["bundled", "!store-sqlite"]\n[db]\npath = "pg/kb.sqlite"\nurl = "${PG_URL}"\n`);
    assert.throws(
      () => kbctx.index.openStore({ engine: 'sqlite', url: null, path: ws.path('copy.sqlite') }),
      configError(/the store plugin store-sqlite provides it and is not loaded/),
    );
    await kbctx.close().catch(() => undefined);
  });

  it('an engine no loaded plugin provides is a config error naming it and the loaded store plugins', async () => {
    assert.throws(
      () => open('[db]\nengine = "nope"\n'),
      configError(
        joinedRegExp(
          /^db\.engine = "nope": no loaded plugin provides this store engine; loaded store plugins: /,
          /store-sqlite \(sqlite\), store-postgres \(postgres\), store-lancedb \(lancedb\)$/,
        ),
      ),
    );
    // With configured plugins, the engine may come from one of them: the error comes once they are applied.
    const kbctx = open(`plugins = ["bundled", "!store-postgres", "${WRAPPED}"]\n[db]\nengine = "nope"\n`);
    await assert.rejects(
      kbctx.store.counts(),
      configError(
        joinedRegExp(
          /^db\.engine = "nope": no loaded plugin provides this store engine; loaded store plugins: /,
          /store-sqlite \(sqlite\), store-lancedb \(lancedb\), wrapped-store \(wrapped\)$/,
        ),
      ),
    );
  });
});

describe('a third-party store plugin', () => {
  it('is selected by [db] engine and serves the index', async () => {
    const kbctx = open(`plugins = ["bundled", "${WRAPPED}"]\n[db]\nengine = "wrapped"\npath = "wrapped/kb.sqlite"\n`);
    try {
      await kbctx.ready();
      assert.equal((await kbctx.store.counts()).documents, 0);
      assert.equal(kbctx.index.engine, 'Wrapped SQLite');
      assert.equal(kbctx.store.path, `wrapped:${ws.path('wrapped/kb.sqlite')}`);
      const plugin = kbctx.kernel.plugins().find((p) => p.name === 'wrapped-store');
      assert.deepEqual([plugin?.hooks, plugin?.provides], [['createStore.for("wrapped")'], ['store:wrapped']]);
    } finally {
      await kbctx.close();
    }
  });

  it('the configured plugins applied to open it still add their tools, once', async () => {
    const kbctx = open(
      `plugins = ["bundled", "${WRAPPED}", "${REPO_ROOT}test/fixtures/plugins/ok.mjs"]\n[db]\nengine = ` +
        `"wrapped"\npath = "wrapped/twice.sqlite"\n`,
    );
    try {
      assert.deepEqual(
        toolsOf(kbctx.kernel)
          .list()
          .map((t) => t.name),
        ['search', 'get', 'sources'],
        'built before the configured plugins are applied',
      );
      await kbctx.store.counts(); // applies the configured plugins to open the store
      await kbctx.ready();
      assert.deepEqual(
        toolsOf(kbctx.kernel)
          .list()
          .map((t) => t.name),
        ['search', 'get', 'sources', 'greet'],
      );
    } finally {
      await kbctx.close();
    }
  });
});
