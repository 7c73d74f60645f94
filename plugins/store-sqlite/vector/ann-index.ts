// The approximate (HNSW) index of one embedding space, persisted next to the SQLite file and never
// trusted blindly: a sidecar records the embeddings generation and the keys it holds.
//
// refresh():
// 1. Already loaded in this process at SQLite's current generation: fresh.
// 2. Files that load with the recorded size and dims and hold exactly SQLite's keys: fresh.
// 3. Otherwise, if a usable index exists: add the vectors it lacks, remove keys SQLite no longer has
//    (incremental), unless that touches more than half of it; then
// 4. rebuild from every stored vector. Files are written to temp names and renamed into place.
import type { EmbeddingSpace } from '../../../core/api/plugin.ts';
import { sha256Hex } from '../../../core/api/algorithms.ts';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { loadUsearch, type UsearchIndex, type UsearchModule } from './usearch-module.ts';

/** Where an index pays off: below this many vectors an exact scan is as fast. */
export const ANN_MIN_VECTORS = 20_000;

export interface AnnParams {
  connectivity: number;
  expansionAdd: number;
  expansionSearch: number;
}

export const DEFAULT_ANN_PARAMS: AnnParams = { connectivity: 16, expansionAdd: 128, expansionSearch: 128 };

interface Meta {
  model: string;
  dims: number;
  generation: number;
  size: number;
}

/** What refresh needs from the vector table. */
export interface VectorSource {
  generation(): number;
  /** All rowids of the space, ascending. */
  rowids(): Int32Array;
  /** Vectors of the given rowids (row-major, same order as returned rowids). */
  vectors(rowids: readonly number[]): { rowids: Int32Array; matrix: Float32Array };
}

/**
 * The sidecar stamp of a space's index files (no usearch load): what generation and size they were saved at; null when
 * absent.
 */
export function annStamp(dir: string, space: EmbeddingSpace): { generation: number; size: number } | null {
  try {
    const meta = JSON.parse(readFileSync(`${path.join(dir, annSlug(space))}.json`, 'utf8')) as Meta;
    return meta.model === space.model && meta.dims === space.dims
      ? { generation: meta.generation, size: meta.size }
      : null;
  } catch {
    return null;
  }
}

const annSlug = (space: EmbeddingSpace): string => sha256Hex(`${space.model}\n${space.dims}`).slice(0, 16);

export class AnnIndex {
  private readonly usearch: UsearchModule;
  private readonly space: EmbeddingSpace;
  private readonly base: string;
  private readonly params: AnnParams;
  private index: UsearchIndex | null = null;
  private generation = -1;

  private constructor(usearch: UsearchModule, dir: string, space: EmbeddingSpace, params: AnnParams) {
    this.usearch = usearch;
    this.space = space;
    this.params = params;
    this.base = path.join(dir, annSlug(space));
  }

  /** Null when usearch has no binary for this platform. */
  static open(dir: string, space: EmbeddingSpace, params: AnnParams = DEFAULT_ANN_PARAMS): AnnIndex | null {
    const usearch = loadUsearch();
    return usearch ? new AnnIndex(usearch, dir, space, params) : null;
  }

  refresh(source: VectorSource): 'fresh' | 'updated' | 'rebuilt' {
    const generation = source.generation();
    if (this.index && this.generation === generation) return 'fresh';
    const meta = this.readMeta();
    const loaded = meta ? this.tryLoad(meta) : null;
    const current = source.rowids();
    if (loaded) {
      // Files are checked key by key, not by generation alone: a rolled-back transaction can make
      // SQLite reuse a generation number the files were saved with.
      const held = this.readKeys();
      const { added, removed } = diff(held, current);
      if (held.length === loaded.size() && added.length === 0 && removed.length === 0) {
        this.keep(loaded, generation);
        return 'fresh';
      }
      if (held.length === loaded.size() && added.length + removed.length <= held.length / 2) {
        if (removed.length > 0) loaded.remove(BigUint64Array.from(removed, BigInt));
        this.addVectors(loaded, source, added);
        this.save(loaded, current, generation);
        return 'updated';
      }
    }
    const fresh = this.create();
    this.addVectors(fresh, source, Array.from(current));
    this.save(fresh, current, generation);
    return 'rebuilt';
  }

  /** Chunk rowids of the `k` nearest vectors, nearest first. */
  search(query: Float32Array, k: number): number[] {
    if (!this.index || this.index.size() === 0) return [];
    const matches = this.index.search(query, Math.min(k, this.index.size()), 1);
    return Array.from(matches.keys, Number);
  }

  private create(): UsearchIndex {
    return new this.usearch.Index({
      dimensions: this.space.dims,
      metric: 'ip',
      quantization: 'f16',
      connectivity: this.params.connectivity,
      expansion_add: this.params.expansionAdd,
      expansion_search: this.params.expansionSearch,
      multi: false,
    });
  }

  private addVectors(index: UsearchIndex, source: VectorSource, rowids: readonly number[]): void {
    const threads = Math.max(1, availableParallelism());
    for (let start = 0; start < rowids.length; start += 50_000) {
      const { rowids: found, matrix } = source.vectors(rowids.slice(start, start + 50_000));
      if (found.length === 0) continue;
      const dims = this.space.dims;
      const rows = Array.from({ length: found.length }, (_, i) => matrix.subarray(i * dims, (i + 1) * dims));
      index.add(
        BigUint64Array.from(found, (r) => BigInt(r)),
        rows,
        threads,
      );
    }
  }

  private tryLoad(meta: Meta): UsearchIndex | null {
    if (meta.model !== this.space.model || meta.dims !== this.space.dims || !existsSync(`${this.base}.usearch`))
      return null;
    try {
      const index = this.create();
      index.load(`${this.base}.usearch`);
      return index.size() === meta.size && index.dimensions() === this.space.dims ? index : null;
    } catch {
      return null; // unreadable or from another usearch version: rebuilt
    }
  }

  private save(index: UsearchIndex, keys: Int32Array, generation: number): void {
    mkdirSync(path.dirname(this.base), { recursive: true });
    index.save(`${this.base}.usearch.tmp`);
    writeFileSync(`${this.base}.keys.tmp`, new Uint8Array(keys.buffer, keys.byteOffset, keys.byteLength));
    renameSync(`${this.base}.usearch.tmp`, `${this.base}.usearch`);
    renameSync(`${this.base}.keys.tmp`, `${this.base}.keys`);
    const meta: Meta = { model: this.space.model, dims: this.space.dims, generation, size: index.size() };
    writeFileSync(`${this.base}.json`, JSON.stringify(meta));
    this.keep(index, generation);
  }

  private keep(index: UsearchIndex, generation: number): void {
    this.index = index;
    this.generation = generation;
  }

  private readMeta(): Meta | null {
    try {
      return JSON.parse(readFileSync(`${this.base}.json`, 'utf8')) as Meta;
    } catch {
      return null;
    }
  }

  private readKeys(): Int32Array {
    try {
      const bytes = readFileSync(`${this.base}.keys`);
      return new Int32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    } catch {
      return new Int32Array(0);
    }
  }

  /** Removes the files (used when the space has no vectors left). */
  drop(): void {
    for (const ext of ['usearch', 'keys', 'json']) rmSync(`${this.base}.${ext}`, { force: true });
    this.index = null;
    this.generation = -1;
  }
}

/** Sorted-merge difference of two ascending rowid lists. */
export function diff(held: Int32Array, current: Int32Array): { added: number[]; removed: number[] } {
  const added: number[] = [];
  const removed: number[] = [];
  let i = 0;
  let j = 0;
  while (i < held.length || j < current.length) {
    const h = i < held.length ? (held[i] as number) : Infinity;
    const c = j < current.length ? (current[j] as number) : Infinity;
    if (h === c) {
      i++;
      j++;
    } else if (h < c) {
      removed.push(h);
      i++;
    } else {
      added.push(c);
      j++;
    }
  }
  return { added, removed };
}
