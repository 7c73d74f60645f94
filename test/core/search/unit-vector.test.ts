import assert from 'node:assert/strict';
import { it } from 'node:test';
import { normalizeInPlace } from '../../../core/search/unit-vector.ts';

it('normalizes to unit length and leaves zero vectors alone', () => {
  const v = normalizeInPlace(new Float32Array([3, 4]));
  assert.ok(Math.abs((v[0] as number) - 0.6) < 1e-6 && Math.abs((v[1] as number) - 0.8) < 1e-6);
  assert.deepEqual([...normalizeInPlace(new Float32Array([0, 0]))], [0, 0]);
});
