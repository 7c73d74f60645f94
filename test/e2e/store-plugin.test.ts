// Store plugins through the real CLI: a third-party store selected by `[db] engine` indexes and
// searches, and `kbctx init` names it; a dropped store plugin the config needs exits 3 naming it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { REPO_ROOT, Workspace } from '../helpers/workspace.ts';

let ws: Workspace;
before(() => {
  ws = new Workspace('kbctx-store-plugin-');
  ws.write('docs/ferry.md', '# Ferry timetable\n\nThe harbour ferry leaves every twenty minutes.\n');
});
after(() => ws.cleanup());

describe('a third-party store plugin through the CLI', () => {
  it('[db] engine = "wrapped": sync, search and init go through it', async () => {
    ws.config(
      `plugins = ["bundled", "${REPO_ROOT}test/fixtures/plugins/wrapped-store.ts"]\n[db]\nengine = "wrapped"\n` +
        `path = "data/kb.sqlite"\n[connectors.filesystem.docs]\nroot = "docs"\n`,
    );
    const sync = await ws.kbctx(['sync', 'all']);
    assert.equal(sync.code, 0, sync.stderr);
    const found = await ws.kbctx(['search', 'harbour ferry', '--json']);
    assert.equal(found.code, 0, found.stderr);
    assert.deepEqual(
      (JSON.parse(found.stdout) as { results: { title: string }[] }).results.map((r) => r.title),
      ['Ferry timetable'],
    );
    const init = await ws.kbctx(['init', '--json']);
    assert.equal(init.code, 0, init.stderr);
    const report = JSON.parse(init.stdout) as { db_path: string; engine: string; documents: number };
    assert.deepEqual(
      [report.db_path, report.engine, report.documents],
      [`wrapped:${ws.path('data/kb.sqlite')}`, 'wrapped sqlite', 1],
    );
  });

  it('"!store-postgres" with [db] url: exit 3 naming the engine, the plugin and the loaded store plugins', async () => {
    ws.config('plugins = ["bundled", "!store-postgres"]\n[db]\nurl = "postgres://kbctx@127.0.0.1:1/kb"\n');
    const stats = await ws.kbctx(['stats']);
    assert.equal(stats.code, 3);
    assert.equal(
      stats.stderr,
      'error: db.engine = "postgres": the store plugin store-postgres provides it and is not loaded (check ' +
        'plugins in the config); loaded store plugins: store-sqlite (sqlite), store-lancedb (lancedb)\n',
    );
  });
});
