// Store contract: leases on pending chunks (claimPendingEmbeddings / releaseEmbeddingClaims, ADR 0126),
// so that two embedders never compute the same chunk. Optional in the interface: a store without
// them skips these cases. With `reopen`, the two embedders use two connections (processes, replicas).
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import type { EmbeddingClaim, PendingChunk, Store } from '../../../core/store/store.ts';
import { makeDoc, putAll, SPACE, unit, withStore, type OpenStore } from './fixtures.ts';

const HOUR = 3_600_000;
const docs = () => [
  makeDoc('filesystem:a', 'a.md', ['alpha one', 'alpha two']),
  makeDoc('filesystem:a', 'b.md', ['beta one']),
  makeDoc('git:c', 'c.md', ['gamma one', 'gamma two', 'gamma three']),
];
const lease = (owner: string, extra: Partial<EmbeddingClaim> = {}): EmbeddingClaim => ({
  owner,
  leaseMs: HOUR,
  ...extra,
});
const texts = (page: readonly PendingChunk[]) => page.map((p) => p.text).sort();
const claim = (store: Store, owner: EmbeddingClaim, limit = 100, after = 0) =>
  store.claimPendingEmbeddings!(SPACE, after, limit, owner);

export function claimCases(open: OpenStore, reopen?: (store: Store) => Promise<Store>): void {
  describe('embedding leases', () => {
    const leasing = (fn: (store: Store) => Promise<void>) => () =>
      withStore(open, async (store) => {
        if (typeof store.claimPendingEmbeddings !== 'function') return; // optional: nothing to check
        await putAll(store, docs());
        await fn(store);
      });

    it(
      'a leased chunk is not handed to another owner; the owner gets its own again',
      leasing(async (store) => {
        const a = await claim(store, lease('a'), 4);
        assert.equal(a.length, 4);
        const b = await claim(store, lease('b'));
        assert.equal(b.length, 2);
        assert.deepEqual(new Set([...texts(a), ...texts(b)]).size, 6, 'disjoint, together every pending chunk');
        assert.deepEqual(await claim(store, lease('c')), [], 'nothing left for a third');
        assert.deepEqual(texts(await claim(store, lease('a'), 4)), texts(a), 'renewed for its owner');
        assert.equal(await store.countPendingEmbeddings(SPACE), 6, 'a lease does not make a chunk less pending');
      }),
    );

    it(
      'pages continue after afterRowid, in rowid order',
      leasing(async (store) => {
        const first = await claim(store, lease('a'), 2);
        const rest = await claim(store, lease('a'), 100, first.at(-1)!.rowid);
        const rowids = [...first, ...rest].map((p) => p.rowid);
        assert.equal(rowids.length, 6);
        assert.deepEqual(
          rowids,
          [...rowids].sort((x, y) => x - y),
        );
      }),
    );

    it(
      'an expired lease is taken over (a crashed embedder); release gives leases back',
      leasing(async (store) => {
        const crashed = await claim(store, lease('crashed', { leaseMs: 1 }), 3);
        await sleep(30);
        assert.deepEqual(texts(await claim(store, lease('b'), 3)), texts(crashed));
        await store.releaseEmbeddingClaims!('b');
        assert.equal((await claim(store, lease('c'))).length, 6, 'released and expired leases are free');
      }),
    );

    it(
      'written chunks are no longer handed out; documentIds limits the lease to those documents',
      leasing(async (store) => {
        const only = await claim(store, lease('a', { documentIds: [makeDoc('git:c', 'c.md', []).doc.id] }));
        assert.deepEqual(texts(only), ['gamma one', 'gamma three', 'gamma two']);
        const written = await store.writeEmbeddings(
          SPACE,
          only.map((p) => ({ rowid: p.rowid, contentHash: p.contentHash, vector: unit([1, 0, 0, 0]) })),
        );
        assert.equal(written, 3);
        await store.releaseEmbeddingClaims!('a');
        assert.deepEqual(texts(await claim(store, lease('b'))), ['alpha one', 'alpha two', 'beta one']);
        assert.deepEqual(await claim(store, lease('b', { documentIds: [] })), []);
      }),
    );

    if (reopen) {
      it(
        'two connections claiming at once never get the same chunk',
        leasing(async (store) => {
          const other = await reopen(store);
          try {
            const seen: string[] = [];
            for (let round = 0; round < 4; round++) {
              const [a, b] = await Promise.all([claim(store, lease('a'), 2), claim(other, lease('b'), 2)]);
              seen.push(...a.map((p) => `${p.rowid}`), ...b.map((p) => `${p.rowid}`));
              for (const [s, page] of [
                [store, a],
                [other, b],
              ] as const) {
                await s.writeEmbeddings(
                  SPACE,
                  page.map((p) => ({ rowid: p.rowid, contentHash: p.contentHash, vector: unit([1, 0, 0, 0]) })),
                );
              }
            }
            assert.equal(seen.length, 6, `every chunk once: ${seen.join(',')}`);
            assert.equal(new Set(seen).size, 6);
          } finally {
            await other.close();
          }
        }),
      );
    }
  });
}
