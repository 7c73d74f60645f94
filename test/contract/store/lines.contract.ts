// Store contract: each chunk's source lines, symbol and language (ADR 0210) round-trip through writes, reads, search
// hits and exports; a rewrite that only moves a chunk keeps its row and updates its lines; a symbol's words are
// keyword-searchable (camelCase split), so a function's name finds its definition.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Chunk } from '../../../core/domain/models.ts';
import { collect, makeDoc, terms, withStore, type OpenStore, type TestDoc } from './fixtures.ts';

const place = (c: Chunk): unknown[] => [c.lineStart ?? null, c.lineEnd ?? null, c.symbol ?? null, c.lang ?? null];

/** A two-chunk code document: `Loader.parseConfig` at lines 3-9, a plain chunk at 11-12 (no symbol or language). */
function codeDoc(shift = 0): TestDoc {
  const d = makeDoc(
    'git:code',
    'src/loader.ts',
    ['function body reads the file and returns values', 'trailing notes here'],
    {
      title: 'Settings',
    },
  );
  d.chunks[0] = {
    ...d.chunks[0]!,
    lineStart: 3 + shift,
    lineEnd: 9 + shift,
    symbol: 'Loader.parseConfig',
    lang: 'typescript',
  };
  d.chunks[1] = { ...d.chunks[1]!, lineStart: 11 + shift, lineEnd: 12 + shift };
  return d;
}

export function lineCases(open: OpenStore): void {
  describe('chunk lines', () => {
    it('keeps lines, symbol and language through getChunks, keyword hits and exports', () =>
      withStore(open, async (store) => {
        const d = codeDoc();
        await store.upsertDocument(d.doc, d.chunks, 'fp');
        const chunks = await store.getChunks(d.doc.id);
        assert.deepEqual(chunks.map(place), [
          [3, 9, 'Loader.parseConfig', 'typescript'],
          [11, 12, null, null],
        ]);
        const hit = (await store.keywordSearch({ terms: terms('returns values'), limit: 5, candidateK: 5 })).hits[0];
        assert.deepEqual(hit && place(hit.chunk), [3, 9, 'Loader.parseConfig', 'typescript']);
        const exported = await collect(store.iterateChunks());
        assert.deepEqual(exported.map(place), chunks.map(place));
      }));

    it('a chunk without lines reads back null', () =>
      withStore(open, async (store) => {
        const d = makeDoc('filesystem:docs', 'a.md', ['no lines known']);
        await store.upsertDocument(d.doc, d.chunks, 'fp');
        assert.deepEqual((await store.getChunks(d.doc.id)).map(place), [[null, null, null, null]]);
      }));

    it('a rewrite that moves unchanged chunks keeps them (no chunk written) and updates their lines', () =>
      withStore(open, async (store) => {
        await store.upsertDocument(codeDoc().doc, codeDoc().chunks, 'fp');
        const moved = codeDoc(5);
        const outcome = await store.upsertDocument(moved.doc, moved.chunks, 'fp2');
        assert.deepEqual(outcome, { chunksWritten: 0, chunksDeleted: 0 });
        assert.deepEqual((await store.getChunks(moved.doc.id)).map(place), [
          [8, 14, 'Loader.parseConfig', 'typescript'],
          [16, 17, null, null],
        ]);
      }));

    for (const query of ['parseConfig', 'parse config', 'parse_config', 'Loader'])
      it(`finds a chunk by its symbol's words: "${query}"`, () =>
        withStore(open, async (store) => {
          const d = codeDoc();
          const other = makeDoc('git:code', 'src/other.ts', ['unrelated text about the weather']);
          await store.upsertDocument(d.doc, d.chunks, 'fp');
          await store.upsertDocument(other.doc, other.chunks, 'fp');
          const hits = (await store.keywordSearch({ terms: terms(query), limit: 5, candidateK: 5 })).hits;
          assert.equal(hits[0]?.chunk.symbol, 'Loader.parseConfig');
          assert.equal(hits[0]?.chunk.chunkIndex, 0);
        }));

    it('a chunk whose symbol changes (same text) is found by the new symbol only', () =>
      withStore(open, async (store) => {
        const d = codeDoc();
        await store.upsertDocument(d.doc, d.chunks, 'fp');
        d.chunks[0] = { ...d.chunks[0]!, symbol: 'Reader.loadSettings' };
        await store.upsertDocument(d.doc, d.chunks, 'fp2');
        const find = async (q: string): Promise<number> =>
          (await store.keywordSearch({ terms: terms(q), limit: 5, candidateK: 5 })).hits.length;
        assert.equal(await find('load settings'), 1);
        assert.equal(await find('parse config'), 0);
        assert.deepEqual(
          (await store.getChunks(d.doc.id)).map((c) => c.symbol ?? null),
          ['Reader.loadSettings', null],
        );
      }));
  });
}
