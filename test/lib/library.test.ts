// The library API: the runnable example (resolving `kbctx` to the sources through the package's
// `kbctx-source` export condition) and the edges of openKbctx: a config file path, errors as KbctxErrors.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { KbctxError, openKbctx, type Kbctx } from '../../registry/index.ts';
import { REPO_ROOT, Workspace } from '../helpers/workspace.ts';

it('examples/library/search-and-serve.mjs runs and prints what it found and served', () => {
  const run = spawnSync(process.execPath, ['--conditions=kbctx-source', 'examples/library/search-and-serve.mjs'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(
    run.stdout.split('\n').map((l) => l.replace(/score [\d.]+/, 'score N')),
    [
      'synced filesystem:notes: 2 documents',
      'hit Key rotation (filesystem:notes) score N',
      'get Key rotation: Rotate the signing keys every 90 days with the vault CLI.',
      'sources: filesystem:notes (2 documents, 2 chunks)',
      'GET /kbctx/health: ok',
      'POST /kbctx/tools/search: 200, first hit Deploying',
      '',
    ],
  );
});

describe('openKbctx', () => {
  let ws: Workspace;
  let kbctx: Kbctx;
  before(async () => {
    ws = new Workspace('kbctx-lib-');
    ws.write('docs/a.md', '# Alpha\n\nThe alpha release notes.\n');
    ws.write('kbctx.toml', '[db]\npath = "index/kbctx.sqlite"\n[connectors.filesystem.docs]\nroot = "docs"\n');
    kbctx = await openKbctx({ config: 'kbctx.toml', cwd: ws.dir });
  });
  after(async () => {
    await kbctx.close();
    ws.cleanup();
  });

  it(
    'reads a config file path relative to cwd; sync, search, ' + 'sources and get answer with the REST bodies',
    async () => {
      const synced = await kbctx.sync('filesystem', { full: true });
      assert.deepEqual(
        synced.connectors.map((c) => [c.connector, c.upserted, c.failure]),
        [['filesystem:docs', 1, null]],
      );
      const { results } = await kbctx.search({ query: 'alpha release', limit: 1 });
      assert.deepEqual(Object.keys(results[0]!).sort(), [
        'id',
        'lang',
        'line_end',
        'line_start',
        'score',
        'snippet',
        'source',
        'source_id',
        'source_url',
        'symbol',
        'title',
        'updated_at',
      ]);
      assert.deepEqual([results[0]!.line_start, results[0]!.line_end], [1, 3]);
      assert.equal((await kbctx.get(results[0]!.id)).body, '# Alpha\n\nThe alpha release notes.\n');
      assert.deepEqual(
        (await kbctx.sources()).sources.map((s) => [s.source, s.document_count, s.status]),
        [['filesystem:docs', 1, 'ok']],
      );
      const explained = await kbctx.search({ query: 'alpha', explain: true });
      assert.equal(explained.explain?.mode, 'keyword');
      assert.equal(typeof explained.results[0]?.explain?.keyword_score, 'number');
    },
  );

  it('rejects with KbctxErrors carrying the error-table codes', async () => {
    await assert.rejects(
      kbctx.search({ query: '' }),
      (e: unknown) => e instanceof KbctxError && e.code === 'bad_request',
    );
    await assert.rejects(kbctx.get('no-such-id'), (e: unknown) => e instanceof KbctxError && e.code === 'not_found');
    await assert.rejects(kbctx.sync('git'), (e: unknown) => e instanceof KbctxError && e.code === 'not_found');
    await assert.rejects(
      openKbctx({ cwd: ws.dir, config: { retrieval: { final_limit: 0 } } }),
      (e: unknown) => e instanceof KbctxError && e.code === 'config_error',
    );
    await assert.rejects(openKbctx({ cwd: ws.dir, config: 'missing.toml' }), /config file not found: missing\.toml/);
  });
});
