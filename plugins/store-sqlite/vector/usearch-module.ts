// Loads usearch (HNSW, prebuilt N-API binary) on first use only, so keyword search never pays for
// it. The few members kbctx uses are typed here; a platform without a prebuilt binary gets null.
import { createRequire } from 'node:module';

export interface UsearchMatches {
  keys: BigUint64Array;
  distances: Float32Array;
}

export interface UsearchIndex {
  add(keys: BigUint64Array, vectors: Float32Array[], threads?: number): void;
  search(vector: Float32Array, k: number, threads: number): UsearchMatches;
  remove(keys: BigUint64Array): number | number[];
  size(): number;
  dimensions(): number;
  save(path: string): void;
  load(path: string): void;
}

export interface UsearchModule {
  Index: new (config: {
    dimensions: number;
    metric: string;
    quantization: string;
    connectivity: number;
    expansion_add: number;
    expansion_search: number;
    multi: boolean;
  }) => UsearchIndex;
  exactSearch(
    dataset: Float32Array,
    queries: Float32Array,
    dimensions: number,
    count: number,
    metric: string,
    threads?: number,
  ): UsearchMatches;
}

let cached: UsearchModule | null | undefined;

export function loadUsearch(): UsearchModule | null {
  if (cached !== undefined) return cached;
  try {
    cached = createRequire(import.meta.url)('usearch') as UsearchModule;
  } catch {
    cached = null; // no binary for this platform: exact search only
  }
  return cached;
}
