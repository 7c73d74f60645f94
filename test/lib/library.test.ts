// The library API: the runnable example (resolving `lore-context` to the sources through the package's
// `lore-source` export condition) and the edges of openLore: a config file path, errors as LoreErrors.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { LoreError, openLore, type Lore } from '../../src/lib/index.ts';
import { REPO_ROOT, Workspace } from '../helpers/workspace.ts';

it('examples/library/search-and-serve.mjs runs and prints what it found and served', () => {
  const run = spawnSync(process.execPath, ['--conditions=lore-source', 'examples/library/search-and-serve.mjs'], { cwd: REPO_ROOT, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(run.stdout.split('\n').map((l) => l.replace(/score [\d.]+/, 'score N')), [
    'synced filesystem:notes: 2 documents',
    'hit Key rotation (filesystem:notes) score N',
    'get Key rotation: Rotate the signing keys every 90 days with the vault CLI.',
    'sources: filesystem:notes (2 documents, 2 chunks)',
    'GET /lore/health: ok',
    'POST /lore/tools/search: 200, first hit Deploying',
    '',
  ]);
});

describe('openLore', () => {
  let ws: Workspace;
  let lore: Lore;
  before(async () => {
    ws = new Workspace('lore-lib-');
    ws.write('docs/a.md', '# Alpha\n\nThe alpha release notes.\n');
    ws.write('lore.toml', '[db]\npath = "index/lore.sqlite"\n[connectors.filesystem.docs]\nroot = "docs"\n');
    lore = await openLore({ config: 'lore.toml', cwd: ws.dir });
  });
  after(async () => {
    await lore.close();
    ws.cleanup();
  });

  it('reads a config file path relative to cwd; sync, search, sources and get answer with the REST bodies', async () => {
    const synced = await lore.sync('filesystem', { full: true });
    assert.deepEqual(synced.connectors.map((c) => [c.connector, c.upserted, c.failure]), [['filesystem:docs', 1, null]]);
    const { results } = await lore.search({ query: 'alpha release', limit: 1 });
    assert.deepEqual(Object.keys(results[0]!).sort(), ['id', 'score', 'snippet', 'source', 'source_id', 'source_url', 'title', 'updated_at']);
    assert.equal((await lore.get(results[0]!.id)).body, '# Alpha\n\nThe alpha release notes.\n');
    assert.deepEqual((await lore.sources()).sources.map((s) => [s.source, s.document_count, s.status]), [['filesystem:docs', 1, 'ok']]);
    const explained = await lore.search({ query: 'alpha', explain: true });
    assert.equal(explained.explain?.mode, 'keyword');
    assert.equal(typeof explained.results[0]?.explain?.keyword_score, 'number');
  });

  it('rejects with LoreErrors carrying the error-table codes', async () => {
    await assert.rejects(lore.search({ query: '' }), (e: unknown) => e instanceof LoreError && e.code === 'bad_request');
    await assert.rejects(lore.get('no-such-id'), (e: unknown) => e instanceof LoreError && e.code === 'not_found');
    await assert.rejects(lore.sync('git'), (e: unknown) => e instanceof LoreError && e.code === 'not_found');
    await assert.rejects(openLore({ cwd: ws.dir, config: { retrieval: { final_limit: 0 } } }), (e: unknown) => e instanceof LoreError && e.code === 'config_error');
    await assert.rejects(openLore({ cwd: ws.dir, config: 'missing.toml' }), /config file not found: missing\.toml/);
  });
});
