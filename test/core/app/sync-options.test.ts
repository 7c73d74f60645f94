// `sync --dry-run --limit --since` and `embed pending --limit --dry-run --batch-size`, over a real index.
import assert from 'node:assert/strict';
import { utimesSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { HashingEmbedder } from '../../helpers/hashing-embedder.ts';
import { IndexFixture } from '../../helpers/index-fixture.ts';
import { documentId } from '../../../core/domain/ids.ts';
import { embedPending } from '../../../core/app/embed.ts';
import { selectConnectors } from '../../../core/app/select-connectors.ts';
import { syncConnectors, type SyncOptions } from '../../../core/app/sync.ts';

const fx = new IndexFixture();
after(() => fx.close());

const sync = async (options: SyncOptions) => {
  const kbctx = fx.kbctx;
  const connectors = await Promise.all(
    selectConnectors(kbctx.config, 'all').map((r) => kbctx.index.createConnector(r)),
  );
  const [report] = await syncConnectors(kbctx.index.syncDeps(), connectors, options);
  return report!;
};

describe('sync options', () => {
  it('--dry-run counts and writes nothing', async () => {
    for (let i = 0; i < 4; i++) fx.ws.write(`docs/d${i}.md`, `# Doc ${i}\n\nText ${i}.`);
    const dry = await sync({ full: false, dryRun: true });
    assert.equal(dry.upserted, 4);
    assert.equal(dry.chunksWritten, 4);
    assert.equal((await fx.kbctx.store.counts()).documents, 0);
    assert.equal((await fx.kbctx.store.sourceState('filesystem:docs')).lastSyncAt, null);
  });

  it('--limit takes n changed items and deletes nothing; --since skips older items', async () => {
    const limited = await sync({ full: false, limit: 3 });
    assert.equal(limited.upserted, 3);
    assert.equal((await fx.kbctx.store.counts()).documents, 3);
    fx.ws.remove('docs/d0.md');
    fx.ws.write('docs/new.md', '# New\n\nFresh.');
    const old = new Date('2020-01-01T00:00:00Z');
    for (let i = 1; i < 4; i++) utimesSync(fx.ws.path(`docs/d${i}.md`), old, old);
    const since = await sync({ full: false, since: '2025-01-01T00:00:00.000Z' });
    assert.equal(since.deleted, 0, 'a partial pass never deletes');
    assert.ok(since.notes.some((n) => /d1\.md: updated 2020-01-01.*before --since/.test(n)));
    assert.ok((await fx.kbctx.store.counts()).documents >= 4, 'new.md added, nothing removed');
    const complete = await sync({ full: false });
    assert.ok(complete.deleted >= 1, 'a complete pass removes d0.md');
  });

  it('a scheduled pass skips a connector synced recently by anyone, and runs once that is older', async () => {
    fx.ws.write('docs/late.md', '# Late\n\nWritten after the last sync.');
    const skipped = await sync({ full: false, skipIfSyncedWithinMs: 60_000 });
    assert.equal(skipped.fetched, 0);
    assert.equal(skipped.upserted, 0);
    assert.match(skipped.upToDate ?? '', /^synced \d+ s ago \(.*\), possibly by another replica$/);
    const late = documentId('filesystem:docs', 'late.md');
    assert.equal(await fx.kbctx.store.getDocument(late), null);
    const ran = await sync({ full: false, skipIfSyncedWithinMs: 0 });
    assert.equal(ran.upserted, 1);
    assert.equal((await fx.kbctx.store.getDocument(late))?.title, 'Late');
  });
});

describe('embed options', () => {
  it('--dry-run counts, --limit embeds at most n, --batch-size sets the request size', async () => {
    const embedder = new HashingEmbedder({ batchSize: 100 });
    const pending = await fx.kbctx.store.countPendingEmbeddings({ model: embedder.model, dims: embedder.dims });
    assert.ok(pending >= 4);
    const dry = await embedPending({ store: fx.kbctx.store, embedder }, { dryRun: true });
    assert.equal(dry.pending, pending);
    assert.equal((await fx.kbctx.store.counts()).embedded, 0);
    const first = await embedPending({ store: fx.kbctx.store, embedder }, { limit: 3, batchSize: 1 });
    assert.equal(first.embedded, 3);
    assert.equal(embedder.calls, 3, 'one request per chunk with --batch-size 1');
    const rest = await embedPending({ store: fx.kbctx.store, embedder });
    assert.equal(rest.embedded, pending - 3);
  });
});
