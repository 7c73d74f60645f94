// Unit vectors: the embedders scale what they return so a dot product is the cosine (core's toUnitVectors, the local
// embedder). Pure.

/** Scales a vector to unit length in place (a zero vector stays zero). Returns it. */
export function normalizeInPlace(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += (v[i] as number) * (v[i] as number);
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i] = (v[i] as number) / norm;
  return v;
}
