// The one LanceDB table (`kb`) the store keeps: documents, chunks, embeddings and checkpoints are rows
// of one table told apart by `kind`, so that every write (a document with its chunks, the chunks'
// embeddings it drops) is one commit: a crash leaves the table at the version before or after it.
import type { Chunk, DocumentHead, StoredDocument, SyncRun } from '../../core/api/plugin.ts';
import type { LanceModule } from './lance-module.ts';
import type { Schema, Table } from 'apache-arrow';

export const TABLE = 'kb';
/** The table layout's version (`kbctx init` shows it); bumped when the columns change. */
export const SCHEMA_VERSION = 2;

export type Kind = 'doc' | 'chunk' | 'emb' | 'state' | 'run';

/** A row as written: every column present (null where the kind has none). */
// A type (not an interface): LanceDB takes rows as Record<string, unknown>.
export type LanceRow = {
  row_key: string;
  kind: Kind;
  doc_id: string | null;
  /** Documents: insertion position (kept on update); chunks: the rowid embeddings are queued by. */
  seq: number | null;
  connector: string | null;
  source: string | null;
  source_id: string | null;
  source_url: string | null;
  title: string | null;
  body: string | null;
  content_type: string | null;
  metadata: string | null;
  updated_at: string | null;
  content_hash: string | null;
  fingerprint: string | null;
  chunk_index: number | null;
  text: string | null;
  model: string | null;
  dims: number | null;
  /** The first layout's variable-length vectors; always null since vectors moved to `vector_<dims>` (ADR 0227). */
  vector: number[] | null;
  checkpoint: string | null;
  last_sync_at: string | null;
  /** Chunks: the analysed terms the keyword postings are caught up from (encodeRowTerms; null: analyse the text). */
  terms: string | null;
} & { [column: `vector_${number}`]: number[] };

const STRING_COLUMNS = [
  'doc_id',
  'connector',
  'source',
  'source_id',
  'source_url',
  'title',
  'body',
  'content_type',
  'metadata',
  'updated_at',
  'content_hash',
  'fingerprint',
  'text',
  'model',
  'checkpoint',
  'last_sync_at',
  'terms',
] as const;

/** The columns rows are read back from (not the vectors: Lance searches them in their own columns). */
export const COLUMNS: readonly string[] = ['row_key', 'kind', 'seq', 'chunk_index', 'dims', ...STRING_COLUMNS];

/**
 * The column that holds the vectors of `dims` dimensions: a FixedSizeList, the shape Lance's vector search
 * and vector indexes need (ADR 0227); added to the table when the first vector of that length is written.
 */
export const vectorColumn = (dims: number): `vector_${number}` => `vector_${dims}`;

/** The SQL type of a vector column, for `addColumns` and the cast of the first layout's vectors. */
export const vectorColumnType = (dims: number): string => `FixedSizeList(${dims}, Float32)`;

export function tableSchema({ arrow }: LanceModule): Schema {
  const { Field, Float32, Float64, Int32, List, Schema, Utf8 } = arrow;
  return new Schema([
    new Field('row_key', new Utf8(), false),
    new Field('kind', new Utf8(), false),
    new Field('seq', new Float64(), true),
    new Field('chunk_index', new Int32(), true),
    new Field('dims', new Int32(), true),
    new Field('vector', new List(new Field('item', new Float32(), true)), true),
    ...STRING_COLUMNS.map((name) => new Field(name, new Utf8(), true)),
  ]);
}

const EMPTY: Omit<LanceRow, 'row_key' | 'kind'> = {
  doc_id: null,
  seq: null,
  connector: null,
  source: null,
  source_id: null,
  source_url: null,
  title: null,
  body: null,
  content_type: null,
  metadata: null,
  updated_at: null,
  content_hash: null,
  fingerprint: null,
  chunk_index: null,
  text: null,
  model: null,
  dims: null,
  vector: null,
  checkpoint: null,
  last_sync_at: null,
  terms: null,
};

export const docKey = (id: string): string => `d:${id}`;
export const chunkKey = (id: string): string => `c:${id}`;
export const embKey = (chunkId: string): string => `e:${chunkId}`;
export const stateKey = (connector: string): string => `s:${connector}`;
export const runKey = (connector: string): string => `r:${connector}`;

export function docRow(doc: StoredDocument, fingerprint: string | null, seq: number): LanceRow {
  return {
    ...EMPTY,
    row_key: docKey(doc.id),
    kind: 'doc',
    doc_id: doc.id,
    seq,
    connector: doc.connector,
    source: doc.source,
    source_id: doc.sourceId,
    source_url: doc.sourceUrl,
    title: doc.title,
    body: doc.body,
    content_type: doc.contentType,
    metadata: JSON.stringify(doc.metadata),
    updated_at: doc.updatedAt,
    content_hash: doc.contentHash,
    fingerprint,
  };
}

export function chunkRow(chunk: Chunk, seq: number, terms: string | null): LanceRow {
  return {
    ...EMPTY,
    terms,
    row_key: chunkKey(chunk.id),
    kind: 'chunk',
    doc_id: chunk.documentId,
    seq,
    chunk_index: chunk.chunkIndex,
    text: chunk.text,
    content_hash: chunk.contentHash,
    // Lines, symbol and language as JSON in `metadata` (no new columns, ADR 0210); null: written before lines.
    metadata: JSON.stringify({
      line_start: chunk.lineStart ?? null,
      line_end: chunk.lineEnd ?? null,
      symbol: chunk.symbol ?? null,
      lang: chunk.lang ?? null,
    }),
  };
}

/** A chunk row as a Chunk; `placed` false for a row written before chunks had lines (its document re-syncs). */
export function toChunk(r: Record<string, unknown>): { chunk: Chunk; placed: boolean } {
  const { chunk, placed } = toChunkMeta(
    r['row_key'] as string,
    r['doc_id'] as string,
    r['chunk_index'] as number,
    r['content_hash'] as string,
    r['metadata'],
  );
  return { chunk: { ...chunk, text: r['text'] as string }, placed };
}

/** A chunk row's fields without its text; `placed`: the row has lines (a row of before them has no metadata). */
export function toChunkMeta(
  rowKey: string,
  documentId: string,
  chunkIndex: number,
  contentHash: string,
  metadata: unknown,
): { chunk: Omit<Chunk, 'text'>; placed: boolean } {
  const place =
    typeof metadata === 'string'
      ? (JSON.parse(metadata) as { line_start?: number; line_end?: number; symbol?: string; lang?: string })
      : undefined;
  return {
    chunk: {
      id: rowKey.slice(2),
      documentId,
      chunkIndex,
      contentHash,
      lineStart: place?.line_start ?? null,
      lineEnd: place?.line_end ?? null,
      symbol: place?.symbol ?? null,
      lang: place?.lang ?? null,
    },
    placed: place !== undefined,
  };
}

/** The document's columns an emb row carries for the vector prefilter (emb-stamp.ts, ADR 0246). */
export interface EmbRowStamp {
  source: string;
  connector: string;
  updated_at: string | null;
}

export function embRow(
  chunkId: string,
  documentId: string,
  model: string,
  contentHash: string,
  vector: Float32Array,
  stamp: EmbRowStamp,
): LanceRow {
  return {
    ...EMPTY,
    ...stamp,
    row_key: embKey(chunkId),
    kind: 'emb',
    doc_id: documentId,
    model,
    dims: vector.length,
    content_hash: contentHash,
    [vectorColumn(vector.length)]: Array.from(vector),
  };
}

/** An emb row as read (row key, document, model, dims, hash) with a new stamp and no vector column (kept as is). */
export function restampedEmbRow(r: Record<string, unknown>, stamp: EmbRowStamp): LanceRow {
  return {
    ...EMPTY,
    ...stamp,
    row_key: r['row_key'] as string,
    kind: 'emb',
    doc_id: r['doc_id'] as string,
    model: r['model'] as string,
    dims: r['dims'] as number,
    content_hash: r['content_hash'] as string,
  };
}

export function stateRow(connector: string, checkpoint: string | null, lastSyncAt: string | null): LanceRow {
  return { ...EMPTY, row_key: stateKey(connector), kind: 'state', connector, checkpoint, last_sync_at: lastSyncAt };
}

/** A connector's last sync run: the end in `updated_at`, errors and failure as JSON in `metadata` (no new columns). */
export function runRow(connector: string, run: SyncRun): LanceRow {
  return {
    ...EMPTY,
    row_key: runKey(connector),
    kind: 'run',
    connector,
    updated_at: run.endedAt,
    metadata: JSON.stringify({ errors: run.errors, failure: run.failure }),
  };
}

export function toSyncRun(row: Record<string, unknown>): SyncRun {
  const { errors, failure } = JSON.parse(row['metadata'] as string) as { errors: number; failure: string | null };
  return { endedAt: row['updated_at'] as string, errors, failure };
}

/** A string literal for a Lance (DataFusion SQL) filter. */
export const sqlString = (value: string): string => `'${value.replaceAll("'", "''")}'`;
export const sqlList = (values: readonly string[]): string => `(${values.map(sqlString).join(', ')})`;

/** Rows of an Arrow table as plain objects of the asked columns (nulls kept). */
export function plainRows(table: Table, columns: readonly string[]): Record<string, unknown>[] {
  // Each column read whole by its iterator: get(i) looks the batch up for every cell (slow over many batches).
  const vectors = columns.map((c) => [c, Array.from<unknown>(table.getChild(c) ?? [])] as const);
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < table.numRows; i++) {
    const row: Record<string, unknown> = {};
    for (const [name, values] of vectors) {
      const value: unknown = values[i] ?? null;
      row[name] =
        value !== null && typeof value === 'object' && 'toArray' in value
          ? Float32Array.from((value as { toArray(): ArrayLike<number> }).toArray())
          : value;
    }
    out.push(row);
  }
  return out;
}

export function toDocument(r: Record<string, unknown>): StoredDocument {
  return {
    id: r['doc_id'] as string,
    source: r['source'] as string,
    connector: r['connector'] as string,
    sourceId: r['source_id'] as string,
    sourceUrl: (r['source_url'] as string | null) ?? null,
    title: r['title'] as string,
    body: r['body'] as string,
    contentType: r['content_type'] as string,
    metadata: JSON.parse(r['metadata'] as string) as Record<string, unknown>,
    updatedAt: r['updated_at'] as string,
    contentHash: r['content_hash'] as string,
  };
}

export function toHead(r: Record<string, unknown>): DocumentHead {
  return {
    id: r['doc_id'] as string,
    source: r['source'] as string,
    connector: r['connector'] as string,
    sourceId: r['source_id'] as string,
    sourceUrl: (r['source_url'] as string | null) ?? null,
    title: r['title'] as string,
    updatedAt: r['updated_at'] as string,
  };
}

export function headOf(doc: StoredDocument): DocumentHead {
  return {
    id: doc.id,
    source: doc.source,
    connector: doc.connector,
    sourceId: doc.sourceId,
    sourceUrl: doc.sourceUrl,
    title: doc.title,
    updatedAt: doc.updatedAt,
  };
}

/** A document row's metadata JSON as an object ({} when absent or not an object). */
export function parseMetadata(json: unknown): Record<string, unknown> {
  if (typeof json !== 'string') return {};
  try {
    const value: unknown = JSON.parse(json);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
