// The local embedding worker's vectors arrive as one transferred Float32Array (issue 31): split into
// unit vectors, each with its own buffer; a wrong count, length or value is an upstream_error.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { KbctxError } from '../../../core/index.ts';
import { splitFlatVectors, toFlatVectors } from '../../../plugins/embedder-local/flat-vectors.ts';

it('splits the rows into unit vectors, each with its own buffer', () => {
  const { vectors, dims } = toFlatVectors([
    [3, 4],
    [0, 2],
  ]);
  assert.equal(dims, 2);
  const rows = splitFlatVectors(vectors, dims, 2, null, 'm');
  assert.deepEqual(
    rows.map((r) => [...r]),
    [
      [0.6000000238418579, 0.800000011920929],
      [0, 1],
    ],
  );
  assert.equal(rows[0]!.buffer.byteLength, 8);
  assert.notEqual(rows[0]!.buffer, rows[1]!.buffer);
});

it('names a wrong count, a wrong length and a value that is not finite', () => {
  const fails = (fn: () => unknown, pattern: RegExp) =>
    assert.throws(
      fn,
      (e: unknown) => e instanceof KbctxError && e.code === 'upstream_error' && pattern.test(e.message),
    );
  fails(
    () => splitFlatVectors(new Float32Array(4), 2, 3, null, 'the model'),
    /the model returned 2 vectors for 3 texts/,
  );
  fails(
    () => splitFlatVectors(new Float32Array(4), 2, 2, 512, 'the model'),
    /2-dimensional vectors but \[embedding\] dims = 512/,
  );
  fails(() => splitFlatVectors(Float32Array.of(1, Number.NaN), 2, 1, null, 'the model'), /malformed vector/);
});
