// A deterministic bag-of-words hashing embedder for plumbing tests ONLY: it has no notion of
// meaning and is never offered to users as semantic search (it lives under test/, not src/).
import { createHash } from 'node:crypto';
import { normalizeInPlace } from '../../core/search/unit-vector.ts';
import type { Embedder } from '../../core/embed/embedder.ts';

export class HashingEmbedder implements Embedder {
  readonly model: string;
  readonly dims: number;
  readonly batchSize: number;
  readonly concurrency = 2;
  calls = 0;
  /** Throws on this call number (1-based), to simulate a provider failing midway. */
  failOnCall: number | null = null;

  constructor(options: { model?: string; dims?: number; batchSize?: number } = {}) {
    this.model = options.model ?? 'test:hashing';
    this.dims = options.dims ?? 64;
    this.batchSize = options.batchSize ?? 4;
  }

  embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.calls++;
    if (this.failOnCall === this.calls) return Promise.reject(new Error('provider went away'));
    return Promise.resolve(texts.map((t) => hashVector(t, this.dims)));
  }
}

export function hashVector(text: string, dims: number): Float32Array {
  const v = new Float32Array(dims);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const h = createHash('md5').update(word).digest();
    const slot = h.readUInt32LE(0) % dims;
    v[slot] = (v[slot] ?? 0) + ((h[4] ?? 0) & 1 ? 1 : -1);
  }
  return normalizeInPlace(v);
}
