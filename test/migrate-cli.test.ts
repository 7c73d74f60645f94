// End to end: `lore migrate` through the real CLI: a synced and embedded index copied into a new
// SQLite file answers keyword and semantic searches as the original does; a sync against the copy
// changes nothing; a non-empty target needs --force; bad targets fail clearly.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startHashingProvider, type HashingProvider } from './helpers/hashing-provider.ts';
import { Workspace, type SyncReportJson } from './helpers/workspace.ts';

describe('lore migrate (CLI)', () => {
  const ws = new Workspace('lore-migrate-');
  let provider: HashingProvider;
  const config = (db: string): string =>
    `[db]\npath = "${db}"\n[embedding]\nprovider = "openai"\nbase_url = "${provider.baseUrl}"\nmodel = "m"\ndims = 32\n` +
    '[connectors.filesystem.docs]\nroot = "docs"\n';
  const json = (text: string): Record<string, unknown> => JSON.parse(text) as Record<string, unknown>;

  before(async () => {
    provider = await startHashingProvider(32);
    ws.write('docs/zebra.md', '# Zebras\n\nZebra stripes confuse flies; a zebra herd crosses the river.\n');
    ws.write('docs/river.md', '# Rivers\n\nA river delta forms where the river meets the sea.\n');
    ws.write('docs/notes/mountain.txt', 'Mountain passes close in winter; the mountain road reopens in spring.\n');
    ws.config(config('index.sqlite'));
    ws.write('copy.toml', config('copy.sqlite'));
    const sync = await ws.syncJson('all');
    assert.equal(sync.code, 0, sync.stderr);
  });
  after(async () => {
    await provider.close();
    ws.cleanup();
  });

  it('copies the index into a new SQLite file and verifies it', async () => {
    const r = await ws.lore(['migrate', '--to', 'copy.sqlite', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const report = json(r.stdout);
    assert.deepEqual([report['documents'], report['chunks'], report['embeddings'], report['checkpoints'], report['verified']], [3, 3, 3, 1, true]);
    assert.equal(report['target'], ws.path('copy.sqlite'));
    for (const [query, mode] of [['zebra river', 'keyword'], ['mountain road', 'semantic'], ['river delta', 'hybrid']]) {
      const original = await ws.lore(['search', query!, '--mode', mode!, '--json']);
      const copy = await ws.lore(['-c', 'copy.toml', 'search', query!, '--mode', mode!, '--json']);
      assert.equal(copy.code, 0, copy.stderr);
      assert.ok((json(original.stdout)['results'] as unknown[]).length > 0, `${mode} finds something`);
      assert.deepEqual(json(copy.stdout), json(original.stdout), `${mode} search answers the same on the copy`);
    }
    const resync = await ws.lore(['-c', 'copy.toml', 'sync', 'all', '--json']);
    const [docs] = (json(resync.stdout)['connectors'] as SyncReportJson[]);
    assert.deepEqual([docs?.upserted, docs?.chunks_written, docs?.deleted, docs?.unchanged], [0, 0, 0, 3], 'fingerprints came along');
  });

  it('refuses a target that holds an index unless --force, and then says what it replaced', async () => {
    const refused = await ws.lore(['migrate', '--to', 'copy.sqlite']);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /already holds an index \(3 documents.*--force/);
    const forced = await ws.lore(['migrate', '--to', 'copy.sqlite', '--force']);
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(forced.stdout, /^Replaced what .*copy\.sqlite held: 3 documents, 3 chunks, 3 embeddings, 1 checkpoints \(0 documents not in the source deleted\)$/m);
    assert.match(forced.stdout, /^Copied 3 documents, 3 chunks, 3 embeddings and 1 checkpoints from .*index\.sqlite to .*copy\.sqlite in [\d.]+ s$/m);
    assert.match(forced.stdout, /^Verified: the target holds 3 documents, 3 chunks and 3 embeddings, as the source does$/m);
  });

  it('fails clearly for the index itself, a PostgreSQL URL this build cannot open, and no --to', async () => {
    const itself = await ws.lore(['migrate', '--to', 'index.sqlite']);
    assert.equal(itself.code, 2);
    assert.match(itself.stderr, /names the configured index itself/);
    const pg = await ws.lore(['migrate', '--to', 'postgres://lore:secret@127.0.0.1:1/lore']);
    assert.equal(pg.code, 2);
    assert.match(pg.stderr, /PostgreSQL/);
    assert.doesNotMatch(pg.stderr, /secret/);
    const missing = await ws.lore(['migrate']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--to/);
  });
});
