// Chunk texts read from Lance on demand (ADR 0233): the model holds chunks without their text. A read asks
// Lance once for every text it lacks (`row_key IN (...)`); texts are cached by chunk id and content hash
// (the sha-256 of the text, so an entry never goes stale) in a bounded LRU, and the texts of this
// process's writes not yet committed (a bulk group) are held until their commit. Must not write the table.
import type { Table } from '@lancedb/lancedb';
import type { Chunk } from '../../core/api/plugin.ts';
import type { ChunkMeta } from './model.ts';
import { chunkKey, sqlList } from './rows.ts';

/** Cached texts; at ~1.5 kB a chunk about 12 MB. */
const CACHE_SIZE = 8192;
/** Keys per Lance query (a longer IN list is split). */
const PAGE = 2000;

const keyOf = (c: { id: string; contentHash: string }): string => `${c.id}\n${c.contentHash}`;

export class ChunkTexts {
  private readonly cache = new Map<string, string>();
  /** Texts of writes not yet committed: the open group, then groups whose commit is under way. */
  private open = new Map<string, string>();
  private readonly sealed = new Set<Map<string, string>>();

  /** A text written by this process into the open group. */
  hold(chunk: Chunk): void {
    this.open.set(keyOf(chunk), chunk.text);
  }

  /** The open group goes to commit; pass what this returns to committed() once the commit is over. */
  seal(): Map<string, string> {
    const group = this.open;
    this.open = new Map();
    this.sealed.add(group);
    return group;
  }

  /** The group's commit is over (or failed: the model reloads): Lance answers from now on. */
  committed(group: Map<string, string>): void {
    this.sealed.delete(group);
    for (const [key, text] of group) this.remember(key, text);
  }

  private held(key: string): string | undefined {
    const text = this.open.get(key);
    if (text !== undefined) return text;
    for (const group of this.sealed) if (group.has(key)) return group.get(key);
    return undefined;
  }

  /**
   * The chunks with their texts, in the order given; a chunk whose text Lance no longer has under that
   * content hash (another process rewrote or removed it since the model was loaded) is left out.
   */
  async read(table: Table, chunks: readonly ChunkMeta[]): Promise<Chunk[]> {
    const texts = new Map<string, string>();
    const missing: ChunkMeta[] = [];
    for (const c of chunks) {
      const key = keyOf(c);
      const text = this.held(key) ?? this.cache.get(key);
      if (text === undefined) missing.push(c);
      else {
        texts.set(key, text);
        this.touch(key, text);
      }
    }
    for (let i = 0; i < missing.length; i += PAGE) {
      const page = missing.slice(i, i + PAGE);
      const rows = await table
        .query()
        .where(`row_key IN ${sqlList(page.map((c) => chunkKey(c.id)))}`)
        .select(['row_key', 'content_hash', 'text'])
        .toArrow();
      for (let r = 0; r < rows.numRows; r++) {
        const key = `${(rows.getChild('row_key')?.get(r) as string).slice(2)}\n${rows.getChild('content_hash')?.get(r) as string}`;
        const text = rows.getChild('text')?.get(r) as string;
        texts.set(key, text);
        this.remember(key, text);
      }
    }
    const out: Chunk[] = [];
    for (const c of chunks) {
      const text = texts.get(keyOf(c));
      if (text !== undefined) out.push({ ...c, text });
    }
    return out;
  }

  private touch(key: string, text: string): void {
    if (!this.cache.has(key)) return;
    this.cache.delete(key);
    this.cache.set(key, text);
  }

  private remember(key: string, text: string): void {
    this.cache.delete(key);
    this.cache.set(key, text);
    if (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
  }
}
