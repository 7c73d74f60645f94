// The LanceDB store's one LRU (lru.ts): bounded by summed weight (entries by default), the least
// recently used (read or written) forgotten first, a value heavier than the budget never kept.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Lru } from '../../../plugins/store-lancedb/lru.ts';

it('counts entries by default and forgets the least recently used', () => {
  const lru = new Lru<string>(2);
  lru.set('a', 'A');
  lru.set('b', 'B');
  assert.equal(lru.get('a'), 'A'); // a is now the most recent
  lru.set('c', 'C');
  assert.equal(lru.get('b'), undefined);
  assert.deepEqual([lru.get('a'), lru.get('c')], ['A', 'C']);
  assert.equal(lru.size, 2);
  assert.equal(lru.weight, 2);
});

it('bounds the summed weight, evicting as many old entries as a heavy one needs', () => {
  const lru = new Lru<number[]>(10, (v) => v.length + 1);
  lru.set('x', [1, 2, 3]); // 4
  lru.set('y', [1, 2]); // 3
  lru.set('z', []); // 1: an empty value still weighs
  assert.equal(lru.weight, 8);
  lru.set('w', [1, 2, 3, 4, 5, 6]); // 7: x and y go
  assert.equal(lru.get('x'), undefined);
  assert.equal(lru.get('y'), undefined);
  assert.deepEqual(lru.get('z'), []);
  assert.equal(lru.weight, 8);
});

it('replaces a key in place of its old weight, never keeps a value past the budget, and clears', () => {
  const lru = new Lru<number[]>(5, (v) => v.length);
  lru.set('a', [1, 2, 3]);
  lru.set('a', [1]);
  assert.equal(lru.weight, 1);
  lru.set('big', [1, 2, 3, 4, 5, 6]);
  assert.equal(lru.get('big'), undefined);
  assert.deepEqual(lru.get('a'), [1]);
  lru.set('a', [1, 2, 3, 4, 5, 6]); // too heavy: the old value goes too
  assert.equal(lru.get('a'), undefined);
  assert.equal(lru.weight, 0);
  lru.set('b', [1]);
  lru.clear();
  assert.equal(lru.size, 0);
  assert.equal(lru.weight, 0);
  assert.equal(lru.get('b'), undefined);
});
