// What the LanceDB store keeps in memory (ADR 0233): documents as a head signature, chunks without their
// text (read from Lance on demand: row-reader.ts) and checkpoints; which chunks have a vector is asked of
// Lance when wanted (embedding-state.ts, ADR 0243); loaded once per table version another
// process wrote and kept in step with this process's own writes. The keyword postings are not here: they
// are a Lance table of their own read per query (postings-table.ts, ADR 0234). Document bodies, chunk
// texts and the fields only search filters read (content type, metadata) stay in Lance.
import type { Chunk, SourceState, SyncRun } from '../../core/api/plugin.ts';
import { symbolWords } from '../store-sqlite/api.ts';
import { rowTerms, type RowTerms } from './keyword-index.ts';

/** A chunk without its text (its content hash, the sha-256 of the text, stands for it). */
export type ChunkMeta = Omit<Chunk, 'text'>;

export interface DocEntry {
  id: string;
  /** The connector instance (one string shared by its documents). */
  connector: string;
  /**
   * The head's signature (head-signature.ts); the head itself is read from Lance (row-reader.ts). null: not
   * known yet (a loaded model does not hash every head, ADR 0243): the first read of the head sets it.
   */
  headSig: string | null;
  fingerprint: string | null;
  contentHash: string;
  /** Insertion position (listDocuments). */
  seq: number;
  chunkIds: string[];
}

export interface ChunkEntry {
  chunk: ChunkMeta;
  /** The rowid embeddings are queued by. */
  seq: number;
}

export class Model {
  readonly docs = new Map<string, DocEntry>();
  readonly chunks = new Map<string, ChunkEntry>();
  readonly states = new Map<string, SourceState>();
  readonly runs = new Map<string, SyncRun>();
  private readonly connectors = new Map<string, string>();
  private sortedSeqs: number[] | null = null;
  private readonly bySeq = new Map<number, string>();
  /** Highest seq seen (new seqs are above it). */
  maxSeq = 0;

  putDocument(entry: Omit<DocEntry, 'chunkIds'>, chunks: readonly { chunk: ChunkMeta; seq: number }[]): void {
    const old = this.docs.get(entry.id);
    if (old) for (const id of old.chunkIds) this.dropChunk(id);
    const connector =
      this.connectors.get(entry.connector) ??
      this.connectors.set(entry.connector, entry.connector).get(entry.connector)!;
    this.docs.set(entry.id, { ...entry, connector, chunkIds: chunks.map((c) => c.chunk.id) });
    for (const { chunk, seq } of chunks) {
      this.chunks.set(chunk.id, { chunk, seq });
      this.bySeq.set(seq, chunk.id);
      this.maxSeq = Math.max(this.maxSeq, seq);
    }
    this.maxSeq = Math.max(this.maxSeq, entry.seq);
    this.sortedSeqs = null;
  }

  deleteDocument(id: string): boolean {
    const doc = this.docs.get(id);
    if (!doc) return false;
    for (const chunkId of doc.chunkIds) this.dropChunk(chunkId);
    this.docs.delete(id);
    this.sortedSeqs = null;
    return true;
  }

  private dropChunk(id: string): void {
    const entry = this.chunks.get(id);
    if (!entry) return;
    this.bySeq.delete(entry.seq);
    this.chunks.delete(id);
  }

  chunkBySeq(seq: number): ChunkEntry | undefined {
    const id = this.bySeq.get(seq);
    return id === undefined ? undefined : this.chunks.get(id);
  }

  /** Chunk seqs, ascending. */
  seqs(): number[] {
    this.sortedSeqs ??= [...this.bySeq.keys()].sort((a, b) => a - b);
    return this.sortedSeqs;
  }
}

/** A chunk without its text. */
export function chunkMeta(chunk: Chunk): ChunkMeta {
  const { text: _text, ...meta } = chunk;
  return meta;
}

/** A chunk analysed as its keyword row: the title, the text and its symbol's words (ADR 0210). */
export function chunkTerms(title: string, chunk: Chunk): RowTerms {
  return rowTerms(title, chunk.symbol ? `${chunk.text}\n${symbolWords(chunk.symbol)}` : chunk.text);
}
