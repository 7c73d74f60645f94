// Vectors as the embedding worker sends them: one Float32Array, rows one after another, whose buffer
// is transferred to the main thread instead of copied number by number (a batch of 64 rows as arrays
// of numbers held the server's event loop for tens of ms, issue 31). Checks and splits on arrival.
import { KbctxError } from '../../core/api/plugin.ts';
import { normalizeInPlace } from '../../core/api/algorithms.ts';

/** Rows of numbers (TF.js's output) → one Float32Array and the row length. */
export function toFlatVectors(rows: readonly (readonly number[])[]): { vectors: Float32Array; dims: number } {
  const dims = rows[0]?.length ?? 0;
  const vectors = new Float32Array(rows.length * dims);
  rows.forEach((row, i) => vectors.set(row, i * dims));
  return { vectors, dims };
}

/** `count` unit vectors out of the flat rows, or an upstream_error naming what is wrong. */
export function splitFlatVectors(
  vectors: Float32Array,
  dims: number,
  count: number,
  expectedDims: number | null,
  source: string,
): Float32Array[] {
  if (dims <= 0 || vectors.length !== dims * count)
    throw new KbctxError(
      'upstream_error',
      `${source} returned ${dims > 0 ? vectors.length / dims : 0} vectors for ${count} texts`,
    );
  if (expectedDims !== null && dims !== expectedDims) {
    throw new KbctxError(
      'upstream_error',
      `${source} returned ${dims}-dimensional vectors but [embedding] dims = ${expectedDims}; fix dims (or the ` +
        `model) and run \`kbctx embed rebuild\``,
    );
  }
  for (const x of vectors)
    if (!Number.isFinite(x)) throw new KbctxError('upstream_error', `${source} returned a malformed vector`);
  // Each row its own buffer (a memcpy): a store may keep or serialise a vector by its buffer.
  return Array.from({ length: count }, (_, i) => normalizeInPlace(vectors.slice(i * dims, (i + 1) * dims)));
}
