// Which chunks have a vector is asked of Lance, not loaded at open (ADR 0243): after a reopen the counts,
// spaces, per-source counts and pending queue come from the emb rows, a rewritten chunk's vector is gone,
// and another connection's vectors are seen once the reader reloads.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, it } from 'node:test';
import { embedChunks, makeDoc, SPACE, unit } from '../../contract/store/fixtures.ts';
import { openLanceStore } from '../../../plugins/store-lancedb/lance-store.ts';

const root = mkdtempSync(path.join(tmpdir(), 'kbctx-lance-emb-state-'));
after(() => rmSync(root, { recursive: true, force: true }));

const docs = [
  makeDoc('filesystem:a', 'a.md', ['alpha one', 'alpha two']),
  makeDoc('git:c', 'c.md', ['gamma one', 'gamma two', 'gamma three']),
];
const vector = (text: string): Float32Array => unit([text.length, text.charCodeAt(0), 1, 2]);

it('after a reopen, counts, spaces, sources and the pending queue are read from the emb rows', async () => {
  const dir = path.join(root, 'reopen.lance');
  const writer = await openLanceStore(dir);
  try {
    for (const d of docs) await writer.upsertDocument(d.doc, d.chunks, null);
    // Only the git source's chunks get vectors.
    assert.equal(await embedChunks(writer, SPACE, (text) => (text.startsWith('gamma') ? vector(text) : null)), 3);
  } finally {
    await writer.close();
  }
  const store = await openLanceStore(dir);
  const other = await openLanceStore(dir);
  try {
    assert.deepEqual(await store.counts(), { documents: 2, chunks: 5, embedded: 3 });
    assert.deepEqual(await store.embeddingSpaces(), [{ ...SPACE, count: 3 }]);
    const embedded = Object.fromEntries((await store.sources()).map((s) => [s.source, s.embeddedCount]));
    assert.deepEqual(embedded, { 'filesystem:a': 0, 'git:c': 3 });
    assert.deepEqual((await store.pendingEmbeddings(SPACE, 0, 10)).map((p) => p.text).sort(), [
      'alpha one',
      'alpha two',
    ]);
    // A chunk whose text changes loses its vector: it is pending again and no longer counted.
    const [, c] = docs;
    const rewritten = makeDoc('git:c', 'c.md', ['gamma one', 'gamma two, rewritten', 'gamma three']);
    await store.upsertDocument(rewritten.doc, rewritten.chunks, null);
    assert.equal(await store.countPendingEmbeddings(SPACE), 3);
    assert.deepEqual(await store.embeddingSpaces(), [{ ...SPACE, count: 2 }]);
    assert.equal((await store.counts()).embedded, 2);
    assert.notEqual(rewritten.chunks[1]!.contentHash, c!.chunks[1]!.contentHash);
    // Another connection embeds the rest: this one sees it after its reload.
    assert.equal(await embedChunks(other, SPACE, vector), 3);
    assert.equal(await store.countPendingEmbeddings(SPACE), 0);
    assert.deepEqual(await store.embeddingSpaces(), [{ ...SPACE, count: 5 }]);
  } finally {
    await other.close();
    await store.close();
  }
});
