// What the LanceDB store keeps in memory (ADR 0233): documents as a head signature, chunks without their
// text (read from Lance on demand: chunk-texts.ts), which chunks have an embedding of which space (not
// the vectors: Lance searches those, ADR 0227) and checkpoints; loaded once per table version another
// process wrote and kept in step with this process's own writes. The keyword postings are built at the
// first keyword search (keyword-build.ts), then kept in step too. Document bodies, chunk texts and the
// fields only search filters read (content type, metadata) stay in Lance.
import type { Chunk, SourceState, SyncRun } from '../../core/api/plugin.ts';
import { symbolWords } from '../store-sqlite/api.ts';
import { KeywordIndex, rowTerms, type RowTerms } from './keyword-index.ts';
import { memoryKeywordSource, type KeywordSource } from './keyword-source.ts';

/** A chunk without its text (its content hash, the sha-256 of the text, stands for it). */
export type ChunkMeta = Omit<Chunk, 'text'>;

export interface DocEntry {
  id: string;
  /** The connector instance (one string shared by its documents). */
  connector: string;
  /** The head's signature (head-signature.ts); the head itself is read from Lance (row-reader.ts). */
  headSig: string;
  fingerprint: string | null;
  contentHash: string;
  /** Insertion position (listDocuments). */
  seq: number;
  /** Keyword group (ties go to the lower one). */
  group: number;
  chunkIds: string[];
}

export interface ChunkEntry {
  chunk: ChunkMeta;
  /** The rowid embeddings are queued by. */
  seq: number;
  /** Keyword row id (-1 until the postings are built). */
  row: number;
}

/** A chunk's stored embedding without its vector (the vector stays in Lance). */
export interface EmbEntry {
  model: string;
  dims: number;
  contentHash: string;
}

export class Model {
  readonly docs = new Map<string, DocEntry>();
  readonly chunks = new Map<string, ChunkEntry>();
  readonly embeddings = new Map<string, EmbEntry>();
  readonly states = new Map<string, SourceState>();
  readonly runs = new Map<string, SyncRun>();
  private keyword: KeywordIndex | null = null;
  private source: KeywordSource | null = null;
  private readonly groupDoc: string[] = [];
  private readonly connectors = new Map<string, string>();
  private readonly rowChunk: (string | undefined)[] = [];
  /** While the postings are being built: the terms of chunks written since the build started. */
  private termsSinceBuild: Map<string, RowTerms> | null = null;
  private sortedSeqs: number[] | null = null;
  private readonly bySeq = new Map<number, string>();
  private readonly spaceCounts = new Map<string, number>();
  /** Highest seq seen (new seqs are above it). */
  maxSeq = 0;

  /** What keyword searches read (keyword-source.ts); null until buildKeyword. */
  keywordSource(): KeywordSource | null {
    return this.source;
  }

  /** The postings' live rows; null until buildKeyword. */
  keywordRows(): number | null {
    return this.keyword?.size ?? null;
  }

  /** From now on until buildKeyword, written chunks' terms are kept: the build's read of the table lacks them. */
  startKeywordBuild(): void {
    this.termsSinceBuild ??= new Map();
  }

  /**
   * Builds the postings from each chunk's analysis (`termsOf`: as read at the version the build started from;
   * chunks written since: their own terms), documents in the order they were first seen and their chunks in
   * order (the numbering ties are broken by); a chunk without terms gets an empty row.
   */
  buildKeyword(termsOf: (chunkId: string) => RowTerms | undefined): KeywordSource {
    if (this.source) return this.source;
    const since = this.termsSinceBuild;
    const index = new KeywordIndex();
    for (let group = 0; group < this.groupDoc.length; group++) {
      const doc = this.docOfGroup(group);
      if (doc?.group !== group) continue;
      for (const id of doc.chunkIds) {
        const row = index.add(group, since?.get(id) ?? termsOf(id) ?? { terms: new Map(), length: 0 });
        this.rowChunk[row] = id;
        this.chunks.get(id)!.row = row;
      }
    }
    this.keyword = index;
    this.termsSinceBuild = null;
    this.source = memoryKeywordSource(index);
    return this.source;
  }

  /** `terms`: each chunk's analysis; needed once the postings are built (rows loaded before come without). */
  putDocument(
    entry: Omit<DocEntry, 'group' | 'chunkIds'>,
    chunks: readonly { chunk: ChunkMeta; seq: number; terms?: RowTerms | undefined }[],
  ): void {
    const old = this.docs.get(entry.id);
    const group = old?.group ?? this.groupDoc.push(entry.id) - 1;
    if (old) for (const id of old.chunkIds) this.dropChunk(id);
    const connector =
      this.connectors.get(entry.connector) ??
      this.connectors.set(entry.connector, entry.connector).get(entry.connector)!;
    this.docs.set(entry.id, { ...entry, connector, group, chunkIds: chunks.map((c) => c.chunk.id) });
    for (const { chunk, seq, terms } of chunks) {
      let row = -1;
      if (this.keyword) {
        if (!terms) throw new Error(`chunk ${chunk.id} written without its analysed terms`);
        row = this.keyword.add(group, terms);
        this.rowChunk[row] = chunk.id;
      } else if (terms) this.termsSinceBuild?.set(chunk.id, terms);
      this.chunks.set(chunk.id, { chunk, seq, row });
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
    if (this.keyword && entry.row >= 0) {
      this.keyword.remove(entry.row);
      this.rowChunk[entry.row] = undefined;
    }
    this.bySeq.delete(entry.seq);
    this.chunks.delete(id);
    this.setEmbedding(id, null);
  }

  setEmbedding(chunkId: string, entry: EmbEntry | null): void {
    const old = this.embeddings.get(chunkId);
    if (old) this.spaceCounts.set(spaceKey(old), (this.spaceCounts.get(spaceKey(old)) ?? 1) - 1);
    if (entry === null) this.embeddings.delete(chunkId);
    else {
      this.embeddings.set(chunkId, entry);
      this.spaceCounts.set(spaceKey(entry), (this.spaceCounts.get(spaceKey(entry)) ?? 0) + 1);
    }
  }

  clearEmbeddings(): number {
    const n = this.embeddings.size;
    this.embeddings.clear();
    this.spaceCounts.clear();
    return n;
  }

  chunkOfRow(row: number): ChunkEntry | undefined {
    const id = this.rowChunk[row];
    return id === undefined ? undefined : this.chunks.get(id);
  }

  docOfGroup(group: number): DocEntry | undefined {
    const id = this.groupDoc[group];
    return id === undefined ? undefined : this.docs.get(id);
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

  /** Whether another model has vectors of `dims` dimensions (they share the `vector_<dims>` column). */
  dimsShared(model: string, dims: number): boolean {
    for (const [key, n] of this.spaceCounts)
      if (n > 0 && key !== spaceKey({ model, dims }) && key.startsWith(`${dims}:`)) return true;
    return false;
  }

  /** How many chunks have a vector of the space. */
  spaceSize(model: string, dims: number): number {
    return this.spaceCounts.get(spaceKey({ model, dims })) ?? 0;
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

const spaceKey = (s: { model: string; dims: number }): string => `${s.dims}:${s.model}`;
