import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bm25TermFactor, fts5Idf } from '../../../../plugins/store-sqlite/keyword/bm25.ts';
import {
  termBounds,
  topGroups,
  type Postings,
  type RowStats,
  type ScoredTerm,
} from '../../../../plugins/store-sqlite/keyword/postings-topk.ts';

interface Corpus {
  rows: RowStats;
  lists: Postings[];
}

function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/** Rows with random lengths and groups (some missing); each term appears with its own density. */
function randomCorpus(seed: number, rowCount: number, termCount: number): Corpus {
  const rand = random(seed);
  const lengths = new Int32Array(rowCount);
  const groups = new Int32Array(rowCount);
  let tokens = 0;
  let live = 0;
  for (let r = 0; r < rowCount; r++) {
    groups[r] = rand() < 0.05 ? -1 : Math.floor(rand() * (rowCount / 3));
    lengths[r] = 1 + Math.floor(rand() * 300);
    if (groups[r]! >= 0) {
      tokens += lengths[r]!;
      live++;
    }
  }
  const lists: Postings[] = [];
  for (let t = 0; t < termCount; t++) {
    const density = rand() ** 3;
    const ids: number[] = [];
    const freqs: number[] = [];
    for (let r = 0; r < rowCount; r++) {
      if (groups[r]! < 0 || rand() >= density) continue;
      ids.push(r);
      freqs.push(1 + Math.floor(rand() ** 4 * 12));
    }
    lists.push({ ids: Int32Array.from(ids), freqs: Uint16Array.from(freqs) });
  }
  return { rows: { lengths, groups, avgLength: tokens / live }, lists };
}

function scoredTerms(corpus: Corpus, picks: readonly number[]): ScoredTerm[] {
  const live = corpus.rows.groups.filter((g) => g >= 0).length;
  return picks.map((t) => {
    const postings = corpus.lists[t]!;
    return { postings, idf: fts5Idf(live, postings.ids.length), bounds: termBounds(postings, corpus.rows) };
  });
}

/** Every row scored in term order, best row per group, sorted like topGroups. */
function brute(
  rows: RowStats,
  terms: readonly ScoredTerm[],
  k: number,
  allow?: (g: number) => boolean,
): { group: number; score: number }[] {
  const scores = new Map<number, number>();
  for (const term of terms) {
    term.postings.ids.forEach((row, i) => {
      scores.set(
        row,
        (scores.get(row) ?? 0) + term.idf * bm25TermFactor(term.postings.freqs[i]!, rows.lengths[row]!, rows.avgLength),
      );
    });
  }
  const best = new Map<number, number>();
  for (const [row, score] of scores) {
    const group = rows.groups[row]!;
    if (group < 0 || (allow && !allow(group))) continue;
    if (score > (best.get(group) ?? -1)) best.set(group, score);
  }
  return [...best]
    .map(([group, score]) => ({ group, score }))
    .sort((a, b) => b.score - a.score || a.group - b.group)
    .slice(0, k);
}

describe('topGroups (block-max MaxScore)', () => {
  it('returns exactly the brute-force top k on random corpora, with and without a filter', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const rand = random(seed * 7919);
      const corpus = randomCorpus(seed, 200 + Math.floor(rand() * 1500), 12);
      const picks = Array.from({ length: 1 + Math.floor(rand() * 8) }, () => Math.floor(rand() * 12));
      const terms = scoredTerms(corpus, picks);
      const k = 1 + Math.floor(rand() * 30);
      const allow = seed % 3 === 0 ? (g: number): boolean => g % 4 !== 1 : undefined;
      const got = topGroups(corpus.rows, terms, k, allow);
      const want = brute(corpus.rows, terms, k, allow);
      assert.deepEqual(
        got.hits.map((h) => h.score),
        want.map((w) => w.score),
        `seed ${seed}: scores`,
      );
      // Ties at the cut may keep a different group with the same score; elsewhere the groups agree.
      const cut = want.at(-1)?.score;
      assert.deepEqual(
        got.hits.filter((h) => h.score !== cut).map((h) => h.group),
        want.filter((w) => w.score !== cut).map((w) => w.group),
        `seed ${seed}: groups`,
      );
      for (const hit of got.hits) assert.equal(corpus.rows.groups[hit.row], hit.group);
    }
  });

  it('scores fewer rows than match when k is small', () => {
    const corpus = randomCorpus(5, 5000, 6);
    const terms = scoredTerms(corpus, [0, 1, 2, 3, 4, 5]);
    const matching = new Set(terms.flatMap((t) => [...t.postings.ids])).size;
    const { scored } = topGroups(corpus.rows, terms, 3);
    assert.ok(scored < matching, `${scored} scored of ${matching}`);
  });

  it('counts a repeated term twice, as FTS5 does for a repeated phrase', () => {
    const corpus = randomCorpus(9, 300, 3);
    const terms = scoredTerms(corpus, [1, 1]);
    assert.deepEqual(
      topGroups(corpus.rows, terms, 5).hits.map((h) => h.score),
      brute(corpus.rows, terms, 5).map((w) => w.score),
    );
  });

  it('returns nothing for no terms or empty lists, and fewer than k when few groups match', () => {
    const rows: RowStats = { lengths: Int32Array.from([3, 4]), groups: Int32Array.from([0, 1]), avgLength: 3.5 };
    assert.deepEqual(topGroups(rows, [], 5).hits, []);
    const postings = { ids: Int32Array.from([1]), freqs: Uint16Array.from([2]) };
    const hits = topGroups(rows, [{ postings, idf: 1, bounds: termBounds(postings, rows) }], 5).hits;
    assert.deepEqual(
      hits.map((h) => [h.row, h.group]),
      [[1, 1]],
    );
  });
});
