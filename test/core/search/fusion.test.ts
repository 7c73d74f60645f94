import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fuse } from '../../../core/search/fusion.ts';

const kw = [
  { id: 'a', score: 0.9 },
  { id: 'b', score: 0.5 },
  { id: 'c', score: 0.1 },
];
const vec = [
  { id: 'c', score: 0.8 },
  { id: 'd', score: 0.6 },
  { id: 'a', score: 0.4 },
];

describe('fuse (weighted)', () => {
  it('absolute (default): mixes the calibrated scores as they are, cosine clamped to [0, 1]', () => {
    const out = fuse(kw, [...vec, { id: 'e', score: -0.3 }], { method: 'weighted', alpha: 0.6, limit: 10 });
    const byId = new Map(out.map((r) => [r.id, r.hybrid]));
    assert.ok(Math.abs(byId.get('a')! - (0.4 * 0.9 + 0.6 * 0.4)) < 1e-12);
    assert.ok(Math.abs(byId.get('c')! - (0.4 * 0.1 + 0.6 * 0.8)) < 1e-12);
    assert.equal(byId.get('e'), 0, 'a negative cosine counts as 0');
    assert.deepEqual(
      out.map((r) => r.id),
      ['a', 'c', 'd', 'b', 'e'],
    );
  });

  it('minmax: mixes min-max normalised scores with alpha as the semantic weight', () => {
    const out = fuse(kw, vec, { method: 'weighted', alpha: 0.6, limit: 10, normalize: 'minmax' });
    const byId = new Map(out.map((r) => [r.id, r]));
    assert.equal(byId.get('a')?.hybrid, 0.4); // keyword 1 · 0.4 + semantic 0 · 0.6
    assert.equal(byId.get('c')?.hybrid, 0.6); // keyword 0 + semantic 1 · 0.6
    assert.ok(Math.abs((byId.get('d')?.hybrid ?? 0) - 0.6 * 0.5) < 1e-12);
    assert.deepEqual(byId.get('b'), { id: 'b', keyword: 0.5, semantic: null, hybrid: 0.4 * 0.5 });
    assert.deepEqual(
      out.map((r) => r.id),
      ['c', 'a', 'd', 'b'],
    );
  });

  it('alpha 0 is keyword order, alpha 1 is vector order', () => {
    assert.deepEqual(
      fuse(kw, vec, { method: 'weighted', alpha: 0, limit: 3 }).map((r) => r.id),
      ['a', 'b', 'c'],
    );
    assert.deepEqual(
      fuse(kw, vec, { method: 'weighted', alpha: 1, limit: 3 }).map((r) => r.id),
      ['c', 'd', 'a'],
    );
  });

  it('breaks ties by id and keeps scores in [0, 1]', () => {
    const out = fuse(
      [
        { id: 'y', score: 3 },
        { id: 'x', score: 3 },
      ],
      [],
      { method: 'weighted', alpha: 0.5, limit: 5, normalize: 'minmax' },
    );
    assert.deepEqual(
      out.map((r) => [r.id, r.hybrid]),
      [
        ['x', 0.5],
        ['y', 0.5],
      ],
    );
  });

  it('handles empty lists and cuts to the limit', () => {
    assert.deepEqual(fuse([], [], { method: 'weighted', alpha: 0.6, limit: 5 }), []);
    assert.equal(fuse(kw, vec, { method: 'weighted', alpha: 0.6, limit: 2 }).length, 2);
  });
});

describe('fuse (rrf)', () => {
  it('scores first-in-both as 1 and follows rank, not raw score', () => {
    const both = fuse([{ id: 'a', score: 0.1 }], [{ id: 'a', score: 0.2 }], { method: 'rrf', alpha: 0.6, limit: 5 });
    assert.equal(both[0]?.hybrid, 1);
    const out = fuse(kw, vec, { method: 'rrf', alpha: 0.5, limit: 10 });
    // a: ranks 1 (kw) and 3 (vec); c: ranks 3 and 1 → equal, tie broken by id.
    assert.deepEqual(out.map((r) => r.id).slice(0, 2), ['a', 'c']);
    for (const r of out) assert.ok(r.hybrid >= 0 && r.hybrid <= 1);
  });
});
