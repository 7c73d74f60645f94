// The approximate index against exact top-k, and its bookkeeping: incremental updates, rebuilds
// when files are missing or damaged, nothing trusted without the generation matching.
import { normalizeInPlace } from '../../../../core/index.ts';
import { exactTopK } from '../../../../plugins/store-sqlite/vector/vector-topk.ts';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { AnnIndex, annStamp, diff, type VectorSource } from '../../../../plugins/store-sqlite/vector/ann-index.ts';

const dims = 32;
const dir = mkdtempSync(path.join(tmpdir(), 'kbctx-ann-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let seed = 7;
const rand = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648 - 0.5;
const randomUnit = (): Float32Array => normalizeInPlace(new Float32Array(dims).map(rand));

/** An in-memory vector table: rowid → vector, with a generation like the SQLite one. */
class MemorySource {
  readonly vectors = new Map<number, Float32Array>();
  gen = 0;
  set(rowid: number, v: Float32Array): void {
    this.vectors.set(rowid, v);
    this.gen++;
  }
  delete(rowid: number): void {
    this.vectors.delete(rowid);
    this.gen++;
  }
  generation(): number {
    return this.gen;
  }
  rowids(): Int32Array {
    return Int32Array.from([...this.vectors.keys()].sort((a, b) => a - b));
  }
  vectorsOf(rowids: readonly number[]): { rowids: Int32Array; matrix: Float32Array } {
    const found = rowids.filter((r) => this.vectors.has(r));
    const matrix = new Float32Array(found.length * dims);
    found.forEach((r, i) => matrix.set(this.vectors.get(r) as Float32Array, i * dims));
    return { rowids: Int32Array.from(found), matrix };
  }
}

function asSource(m: MemorySource): VectorSource {
  return { generation: () => m.generation(), rowids: () => m.rowids(), vectors: (r) => m.vectorsOf(r) };
}

function exactRowids(m: MemorySource, q: Float32Array, k: number): number[] {
  const { rowids, matrix } = m.vectorsOf([...m.rowids()]);
  return exactTopK(matrix, dims, q, k).map((t) => rowids[t.row] as number);
}

describe('AnnIndex', () => {
  const space = { model: 'test:ann', dims };
  const memory = new MemorySource();
  for (let i = 1; i <= 3000; i++) memory.set(i * 3, randomUnit());

  it('agrees with exact top-10 (recall ≥ 0.95 over 50 queries)', () => {
    const ann = AnnIndex.open(dir, space);
    assert.ok(ann, 'usearch binary loads');
    assert.equal(ann.refresh(asSource(memory)), 'rebuilt');
    let hit = 0;
    for (let q = 0; q < 50; q++) {
      const query = randomUnit();
      const exact = new Set(exactRowids(memory, query, 10));
      hit += ann.search(query, 10).filter((r) => exact.has(r)).length;
    }
    assert.ok(hit / 500 >= 0.95, `recall@10 = ${hit / 500}`);
  });

  it('is fresh when nothing changed, also for a new process reading the files', () => {
    const ann = AnnIndex.open(dir, space);
    assert.equal(ann?.refresh(asSource(memory)), 'fresh');
    assert.equal(ann?.refresh(asSource(memory)), 'fresh');
    // `kbctx doctor` reads the stamp without loading usearch.
    assert.deepEqual(annStamp(dir, space), { generation: memory.generation(), size: 3000 });
    assert.equal(annStamp(dir, { model: 'other', dims }), null);
  });

  it('updates incrementally: new vectors are found, deleted ones are gone', () => {
    const ann = AnnIndex.open(dir, space);
    const added = randomUnit();
    memory.set(99_999, added);
    memory.delete(3);
    assert.equal(ann?.refresh(asSource(memory)), 'updated');
    assert.deepEqual(ann?.search(added, 1), [99_999]);
    const again = AnnIndex.open(dir, space);
    assert.equal(again?.refresh(asSource(memory)), 'fresh');
    assert.ok(!again?.search(memory.vectors.get(6) as Float32Array, 50).includes(3));
  });

  it('rebuilds when the files are missing or damaged', () => {
    for (const f of readdirSync(dir)) if (f.endsWith('.usearch')) writeFileSync(path.join(dir, f), 'garbage');
    memory.set(100_002, randomUnit());
    assert.equal(AnnIndex.open(dir, space)?.refresh(asSource(memory)), 'rebuilt');
    for (const f of readdirSync(dir)) rmSync(path.join(dir, f));
    assert.equal(AnnIndex.open(dir, space)?.refresh(asSource(memory)), 'rebuilt');
  });

  it('rebuilds rather than patch when most of the vectors changed', () => {
    const ann = AnnIndex.open(dir, space);
    for (const r of [...memory.vectors.keys()].slice(0, 2000)) memory.delete(r);
    assert.equal(ann?.refresh(asSource(memory)), 'rebuilt');
  });
});

describe('diff', () => {
  it('splits two sorted rowid lists into added and removed', () => {
    assert.deepEqual(diff(Int32Array.from([1, 3, 5, 7]), Int32Array.from([2, 3, 7, 8])), {
      added: [2, 8],
      removed: [1, 5],
    });
  });
});
