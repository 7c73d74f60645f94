// Chunk texts and document heads read from Lance on demand (ADR 0233): the model holds chunks without their text and
// documents as a head signature. A read asks Lance once for all it lacks (`doc_id IN (...) AND row_key IN (...)`); what
// it read is cached in bounded LRUs keyed so an entry never goes stale (a chunk by id and content hash, the sha-256 of
// its text; a head by id and signature), and what this process wrote but has not committed yet (a bulk group) is held
// until its commit. The query names the rows' `doc_id` too, so Lance finds them through that column's index rather than
// a scan of every row. Must not write the table.
import type { Table } from '@lancedb/lancedb';
import type { Chunk, DocumentHead } from '../../core/api/plugin.ts';
import type { ChunkMeta } from './model.ts';
import { headSignature } from './head-signature.ts';
import { Lru } from './lru.ts';
import { chunkKey, docKey, plainRows, sqlList, toHead } from './rows.ts';

/** Cached chunk texts (at ~1.5 kB a chunk about 12 MB) and document heads (~0.5 kB each). */
const TEXTS = 8192;
const HEADS = 8192;
/** Keys per Lance query (a longer IN list is split). */
const PAGE = 2000;
const COLUMNS = [
  'row_key',
  'kind',
  'content_hash',
  'text',
  'doc_id',
  'source',
  'connector',
  'source_id',
  'source_url',
  'title',
  'updated_at',
];

/**
 * A document as the model knows it: the head is read when its signature (head-signature.ts) is not cached; an
 * unknown signature (null) is read, and set from what Lance has.
 */
export interface HeadRef {
  id: string;
  headSig: string | null;
}

const textKey = (c: { id: string; contentHash: string }): string => `${c.id}\n${c.contentHash}`;
const headKey = (d: HeadRef): string => `${d.id}\n${d.headSig}`;

/** What a write holds until its commit: texts and heads by their cache keys. */
interface Group {
  texts: Map<string, string>;
  heads: Map<string, DocumentHead>;
}

export class RowReader {
  private readonly texts = new Lru<string>(TEXTS);
  private readonly heads = new Lru<DocumentHead>(HEADS);
  private open: Group = { texts: new Map(), heads: new Map() };
  private readonly sealed = new Set<Group>();

  /** A chunk and its document's head, written by this process into the open group. */
  hold(head: DocumentHead, chunks: readonly Chunk[]): void {
    this.open.heads.set(headKey({ id: head.id, headSig: headSignature(head) }), head);
    for (const c of chunks) this.open.texts.set(textKey(c), c.text);
  }

  /** The open group goes to commit; pass what this returns to committed() once the commit is over. */
  seal(): Group {
    const group = this.open;
    this.open = { texts: new Map(), heads: new Map() };
    this.sealed.add(group);
    return group;
  }

  /** The group's commit is over (or failed: the model reloads): Lance answers from now on. */
  committed(group: Group): void {
    this.sealed.delete(group);
    for (const [key, text] of group.texts) this.texts.set(key, text);
    for (const [key, head] of group.heads) this.heads.set(key, head);
  }

  /**
   * The chunks with their texts and the documents' heads, in one Lance query for what is not held or cached.
   * A chunk or head Lance no longer has as the model knows it (another process rewrote or removed it since
   * the model was loaded) is left out.
   */
  async read(
    table: Table,
    chunks: readonly ChunkMeta[],
    docs: readonly HeadRef[] = [],
  ): Promise<{ chunks: Map<string, Chunk>; heads: Map<string, DocumentHead> }> {
    const texts = new Map<string, string>();
    const heads = new Map<string, DocumentHead>();
    const missing: { key: string; docId: string }[] = [];
    for (const c of chunks) {
      const text = this.heldText(textKey(c));
      if (text === undefined) missing.push({ key: chunkKey(c.id), docId: c.documentId });
      else texts.set(textKey(c), text);
    }
    for (const d of docs) {
      const head = d.headSig === null ? undefined : this.heldHead(headKey(d));
      if (head === undefined) missing.push({ key: docKey(d.id), docId: d.id });
      else heads.set(headKey(d), head);
    }
    const unsigned = new Map(docs.filter((d) => d.headSig === null).map((d) => [d.id, d]));
    for (let i = 0; i < missing.length; i += PAGE) {
      const page = missing.slice(i, i + PAGE);
      // The doc_id term lets Lance find the rows through doc_id's BTREE (built with the vector index, ADR 0235,
      // and by compact(), ADR 0245): row_key has no index (lancedb#3177), and alone it is a scan of the whole
      // column (17.5 against 2.8 ms for ten documents at 52k, ADR 0244).
      const where =
        `doc_id IN ${sqlList([...new Set(page.map((m) => m.docId))])} ` +
        `AND row_key IN ${sqlList([...new Set(page.map((m) => m.key))])}`;
      for (const r of plainRows(await table.query().where(where).select(COLUMNS).toArrow(), COLUMNS)) {
        if (r['kind'] === 'chunk') {
          const key = `${(r['row_key'] as string).slice(2)}\n${r['content_hash'] as string}`;
          texts.set(key, r['text'] as string);
          this.texts.set(key, r['text'] as string);
        } else {
          const head = toHead(r);
          const headSig = headSignature(head);
          const key = headKey({ id: head.id, headSig });
          heads.set(key, head);
          this.heads.set(key, head);
          const ref = unsigned.get(head.id);
          if (ref) ref.headSig = headSig;
        }
      }
    }
    const outChunks = new Map<string, Chunk>();
    for (const c of chunks) {
      const text = texts.get(textKey(c));
      if (text !== undefined) outChunks.set(c.id, { ...c, text });
    }
    const outHeads = new Map<string, DocumentHead>();
    for (const d of docs) {
      const head = heads.get(headKey(d));
      if (head) outHeads.set(d.id, { ...head });
    }
    return { chunks: outChunks, heads: outHeads };
  }

  private heldText(key: string): string | undefined {
    const text = this.open.texts.get(key);
    if (text !== undefined) return text;
    for (const group of this.sealed) if (group.texts.has(key)) return group.texts.get(key);
    return this.texts.get(key);
  }

  private heldHead(key: string): DocumentHead | undefined {
    const head = this.open.heads.get(key);
    if (head) return head;
    for (const group of this.sealed) if (group.heads.has(key)) return group.heads.get(key);
    return this.heads.get(key);
  }
}
