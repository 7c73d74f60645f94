import assert from 'node:assert/strict';
import { symlinkSync, utimesSync } from 'node:fs';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { KbctxError } from '../../../core/domain/errors.ts';
import { documentId } from '../../../core/domain/ids.ts';
import { syncConnectors } from '../../../core/app/sync.ts';
import { IndexFixture } from '../../helpers/index-fixture.ts';

let fx: IndexFixture;
beforeEach(() => {
  fx = new IndexFixture();
});
afterEach(() => fx.close());

const para = (word: string, n = 60): string => Array.from({ length: n }, (_, i) => `${word}${i % 7}`).join(' ') + '.';
const ids = async (): Promise<string[]> => (await fx.kbctx.store.exportAll()).documents.map((d) => d.sourceId);

describe('sync (filesystem)', () => {
  it('indexes new files and reports counts', async () => {
    fx.ws.write('docs/a.md', '# Alpha\n\nThe alpha document.');
    fx.ws.write('docs/sub/b.txt', 'Bravo text.');
    const r = await fx.syncOne();
    assert.equal(r.failure, null);
    assert.deepEqual([r.fetched, r.upserted, r.deleted, r.unchanged], [2, 2, 0, 0]);
    assert.equal(r.chunksWritten, 2);
    assert.deepEqual(await ids(), ['a.md', 'sub/b.txt']);
    const doc = await fx.kbctx.store.getDocument(documentId('filesystem:docs', 'a.md'));
    assert.equal(doc?.title, 'Alpha');
    assert.match(doc?.sourceUrl ?? '', /^file:\/\/.*\/docs\/a\.md$/);
  });

  it('costs no writes when nothing changed, even after a touch', async () => {
    fx.ws.write('docs/a.md', '# Alpha\n\nText.');
    await fx.syncOne();
    const before = await fx.kbctx.store.exportAll();
    let r = await fx.syncOne();
    assert.deepEqual([r.upserted, r.chunksWritten, r.deleted, r.unchanged], [0, 0, 0, 1]);
    utimesSync(fx.ws.path('docs/a.md'), new Date(), new Date(Date.now() + 5000)); // same content, new mtime
    r = await fx.syncOne();
    assert.deepEqual([r.upserted, r.chunksWritten, r.unchanged], [0, 0, 1]);
    assert.deepEqual(await fx.kbctx.store.exportAll(), before);
  });

  it('re-chunks an edited file and keeps the ids of unchanged chunks', async () => {
    await fx.setConfig(
      '[chunking]\nmax_tokens = 40\noverlap_tokens = 0\n[connectors.filesystem.docs]\nroot = "docs"\n',
    );
    fx.ws.write('docs/a.md', [para('one', 20), para('two', 20), para('three', 20)].join('\n\n'));
    await fx.syncOne();
    const id = documentId('filesystem:docs', 'a.md');
    const before = await fx.kbctx.store.getChunks(id);
    assert.equal(before.length, 3);
    fx.ws.write('docs/a.md', [para('one', 20), para('six', 20), para('three', 20)].join('\n\n'));
    utimesSync(fx.ws.path('docs/a.md'), new Date(), new Date(Date.now() + 5000));
    const r = await fx.syncOne();
    assert.deepEqual([r.upserted, r.chunksWritten], [1, 1]);
    const after = await fx.kbctx.store.getChunks(id);
    assert.equal(after[0]?.id, before[0]?.id);
    assert.equal(after[2]?.id, before[2]?.id);
    assert.notEqual(after[1]?.id, before[1]?.id);
    assert.equal((await fx.kbctx.store.counts()).chunks, 3);
  });

  it('removes deleted files from the index and from search', async () => {
    fx.ws.write('docs/keep.md', 'keep this zebra');
    fx.ws.write('docs/gone.md', 'remove this zebra');
    await fx.syncOne();
    fx.ws.remove('docs/gone.md');
    const r = await fx.syncOne();
    assert.equal(r.deleted, 1);
    assert.deepEqual(await ids(), ['keep.md']);
    const hits = await fx.kbctx.store.keywordSearch({
      terms: [{ token: 'remove', stem: 'remov' }],
      limit: 10,
      candidateK: 10,
    });
    assert.equal(hits.hits.length, 0);
    assert.equal((await fx.kbctx.store.counts()).chunks, 1);
  });

  it('treats a rename as a delete plus an add', async () => {
    fx.ws.write('docs/old-name.md', '# Guide\n\nRename me.');
    await fx.syncOne();
    fx.ws.remove('docs/old-name.md');
    fx.ws.write('docs/new-name.md', '# Guide\n\nRename me.');
    const r = await fx.syncOne();
    assert.deepEqual([r.upserted, r.deleted], [1, 1]);
    assert.deepEqual(await ids(), ['new-name.md']);
    assert.ok(await fx.kbctx.store.getDocument(documentId('filesystem:docs', 'new-name.md')));
  });

  it('keeps document ids across re-syncs and --full', async () => {
    fx.ws.write('docs/a.md', 'stable');
    await fx.syncOne();
    const id = (await fx.kbctx.store.exportAll()).documents[0]?.id;
    assert.equal(id, documentId('filesystem:docs', 'a.md'));
    const r = await fx.syncOne('all', true);
    assert.deepEqual([r.upserted, r.unchanged], [1, 0], '--full reprocesses everything');
    assert.equal((await fx.kbctx.store.exportAll()).documents[0]?.id, id);
  });

  it('skips binary and oversize files with a count, and drops them if they were indexed', async () => {
    await fx.setConfig('[connectors.filesystem.docs]\nroot = "docs"\ninclude_globs = ["**/*"]\nmax_file_bytes = 100\n');
    fx.ws.write('docs/text.txt', 'plain');
    fx.ws.write('docs/image.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]));
    fx.ws.write('docs/big.txt', 'x'.repeat(200));
    const r = await fx.syncOne();
    assert.deepEqual([r.upserted, r.skipped], [1, 2]);
    assert.ok(r.notes.some((n) => n.includes('image.png') && n.includes('binary')));
    assert.ok(r.notes.some((n) => n.includes('big.txt') && n.includes('max_file_bytes')));
    fx.ws.write('docs/text.txt', 'now\u0000binary');
    const again = await fx.syncOne();
    assert.equal(again.deleted, 1);
    assert.deepEqual(await ids(), []);
  });

  it('applies include and exclude globs (dotfiles included, excluded folders pruned)', async () => {
    await fx.setConfig(
      '[connectors.filesystem.docs]\nroot = "docs"\ninclude_globs = ["**/*.md"]\nexclude_globs = ' +
        '["**/drafts/**", "secret.md"]\n',
    );
    fx.ws.write('docs/a.md', 'a');
    fx.ws.write('docs/.github/b.md', 'b');
    fx.ws.write('docs/drafts/c.md', 'c');
    fx.ws.write('docs/secret.md', 'd');
    fx.ws.write('docs/e.txt', 'e');
    await fx.syncOne();
    assert.deepEqual(await ids(), ['.github/b.md', 'a.md']);
  });

  it('follows symbolic links only when asked, and survives a link cycle', async () => {
    fx.ws.write('outside/linked.md', 'linked');
    fx.ws.write('docs/real.md', 'real');
    symlinkSync(fx.ws.path('outside'), fx.ws.path('docs/link'));
    symlinkSync(fx.ws.path('docs'), fx.ws.path('docs/loop'));
    await fx.syncOne();
    assert.deepEqual(await ids(), ['real.md']);
    await fx.setConfig('[connectors.filesystem.docs]\nroot = "docs"\nfollow_symlinks = true\n');
    await fx.syncOne();
    assert.deepEqual(await ids(), ['link/linked.md', 'real.md']);
  });

  it('skips an a<->b symbolic link loop with an error note and indexes the rest', async () => {
    await fx.setConfig('[connectors.filesystem.docs]\nroot = "docs"\nfollow_symlinks = true\n');
    fx.ws.write('docs/real.md', 'real');
    symlinkSync(fx.ws.path('docs/b'), fx.ws.path('docs/a'));
    symlinkSync(fx.ws.path('docs/a'), fx.ws.path('docs/b'));
    const r = await fx.syncOne();
    assert.equal(r.failure, null);
    assert.deepEqual([r.upserted, r.errors], [1, 2]);
    assert.match(r.notes.join('\n'), /error a: cannot read \(symbolic link loop\)/);
    assert.deepEqual(await ids(), ['real.md']);
  });

  it('fails one connector with a clear message without stopping the others', async () => {
    await fx.setConfig(
      '[connectors.filesystem.docs]\nroot = "docs"\n[connectors.filesystem.missing]\nroot = "nowhere"\n',
    );
    fx.ws.write('docs/a.md', 'a');
    const reports = await fx.sync('all');
    const missing = reports.find((r) => r.connector === 'filesystem:missing');
    assert.match(missing?.failure?.message ?? '', /root .*nowhere does not exist/);
    assert.equal(reports.find((r) => r.connector === 'filesystem:docs')?.upserted, 1);
  });

  it('never rejects when the store fails at the start, the commit or the compaction: the reports say so', async () => {
    const { selectConnectors } = await import('../../../core/app/select-connectors.ts');
    fx.ws.write('docs/a.md', 'a');
    const kbctx = fx.kbctx;
    const connectors = await Promise.all(
      selectConnectors(kbctx.config, 'all').map((r) => kbctx.index.createConnector(r)),
    );
    const gone = new KbctxError('unavailable', 'PostgreSQL at 127.0.0.1:5432 is unreachable');
    for (const method of ['beginBulk', 'endBulk', 'compact'] as const) {
      fx.ws.write(`docs/${method}.md`, `new text for ${method}`);
      const deps = kbctx.index.syncDeps();
      // The real store, but this one method fails after doing its work (as when PostgreSQL goes away then).
      const store = new Proxy(deps.store, {
        get(target, key) {
          const value = Reflect.get(target, key) as unknown;
          if (typeof value !== 'function') return value;
          const bound = (value as (...args: unknown[]) => unknown).bind(target);
          if (key !== method) return bound;
          return async () => {
            if (method !== 'beginBulk') await bound();
            throw gone;
          };
        },
      });
      const reports = await syncConnectors({ ...deps, store }, connectors, { full: false });
      assert.deepEqual(
        reports.map((r) => [r.connector, r.failure?.code]),
        [['filesystem:docs', 'unavailable']],
        method,
      );
    }
  });

  it('takes the title from front matter, then the first heading, then the file name', async () => {
    fx.ws.write('docs/fm.md', '---\ntitle: From Front Matter\ntags: [a, b]\n---\n# Heading\n\nBody');
    fx.ws.write('docs/h.md', 'intro\n\n# From Heading\n\nBody');
    fx.ws.write('docs/none.txt', 'no title here');
    await fx.syncOne();
    const docs = (await fx.kbctx.store.exportAll()).documents;
    const title = (sourceId: string): string | undefined => docs.find((d) => d.sourceId === sourceId)?.title;
    assert.equal(title('fm.md'), 'From Front Matter');
    assert.deepEqual(docs.find((d) => d.sourceId === 'fm.md')?.metadata['tags'], ['a', 'b']);
    assert.equal(title('h.md'), 'From Heading');
    assert.equal(title('none.txt'), 'none.txt');
  });
});
