import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { loadPostings, savePostings } from '../../../../plugins/store-sqlite/keyword/postings-file.ts';
import { PostingsIndex, type RowPostings } from '../../../../plugins/store-sqlite/keyword/postings-index.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'kbctx-postings-file-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Postings for `rows`: row r holds term `t<k>` when k divides r + salt, so lists have varied lengths. */
function rowsOf(rows: readonly number[], salt = 0): RowPostings {
  const terms = new Map<string, { ids: number[]; freqs: number[] }>();
  for (const row of rows) {
    for (let k = 1; k <= 6; k++) {
      if ((row + salt) % k !== 0) continue;
      const list = terms.get(`t${k}`) ?? { ids: [], freqs: [] };
      list.ids.push(row);
      list.freqs.push(1 + ((row * k + salt) % 4));
      terms.set(`t${k}`, list);
    }
  }
  return { rows: rows.map((row) => ({ row, group: row >> 1, length: 5 + (row % 7) })), terms };
}

function snapshot(index: PostingsIndex): unknown {
  const terms = [...index.terms()]
    .map(([t, p]) => [t, [...p.ids], [...p.freqs]])
    .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
  const { lengths, groups } = index.arrays();
  const live = [...groups.keys()].filter((r) => groups[r]! >= 0).map((r) => [r, groups[r], lengths[r]]);
  return { seq: index.seq, size: index.size, avg: index.rows.avgLength, terms, live };
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, i) => from + i);

describe('PostingsIndex', () => {
  it('applying changes gives the index a rebuild of the new state would give', () => {
    const index = PostingsIndex.fromRows('e', 1, rowsOf(range(0, 40)));
    // Rows 3 and 10 rewritten, 7 deleted, 40..44 added, 20 re-added with new content (a reused rowid).
    const changed = [3, 7, 10, 20, 40, 41, 42, 43, 44];
    const now = range(0, 45).filter((r) => r !== 7);
    const current = (r: number): number => ([3, 10, 20].includes(r) ? 1 : 0);
    const rewritten = (rows: readonly number[]): RowPostings => {
      const parts = rows.map((r) => rowsOf([r], current(r)));
      const out: RowPostings = { rows: parts.flatMap((p) => p.rows), terms: new Map() };
      for (const p of parts) {
        for (const [t, l] of p.terms) {
          const held = out.terms.get(t) ?? { ids: [], freqs: [] };
          held.ids.push(...l.ids);
          held.freqs.push(...l.freqs);
          out.terms.set(t, held);
        }
      }
      return out;
    };
    index.apply(changed, rewritten(changed.filter((r) => r !== 7)), 2);
    assert.deepEqual(snapshot(index), snapshot(PostingsIndex.fromRows('e', 2, rewritten(now))));
  });

  it('uses FTS5 totals for N and the average length when given', () => {
    const index = PostingsIndex.fromRows('e', 1, rowsOf(range(0, 10)));
    index.useTotals({ rows: 12, tokens: 120 });
    assert.equal(index.size, 12);
    assert.equal(index.rows.avgLength, 10);
  });
});

describe('postings file', () => {
  it('round-trips an index, and reads a torn or foreign file as absent', () => {
    const file = path.join(dir, 'a.keyword');
    const index = PostingsIndex.fromRows('epoch1', 7, rowsOf(range(0, 300)));
    savePostings(file, index);
    const loaded = loadPostings(file);
    assert.ok(loaded);
    assert.equal(loaded.epoch, 'epoch1');
    assert.deepEqual(snapshot(loaded), snapshot(index));
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.subarray(0, bytes.length - 9));
    assert.equal(loadPostings(file), null);
    writeFileSync(file, 'not a postings file at all');
    assert.equal(loadPostings(file), null);
    assert.equal(loadPostings(path.join(dir, 'missing.keyword')), null);
  });
});
