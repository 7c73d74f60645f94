import {
  chunkFromRecord,
  type Chunk,
  type ChunkRecord,
  type DocumentHead,
  type StoredDocument,
} from '../../core/api/plugin.ts';
// Row ⇄ model mapping for the SQLite store.

export interface DocumentRow {
  id: string;
  source: string;
  connector: string;
  source_id: string;
  source_url: string | null;
  title: string;
  body: string;
  content_type: string;
  metadata_json: string;
  updated_at: string;
  content_hash: string;
}

/** A chunk's row: the columns every store names alike (core's ChunkRecord). */
export type ChunkRow = ChunkRecord;

export const DOCUMENT_COLUMNS =
  'd.id, d.source, d.connector, d.source_id, d.source_url, d.title, d.body, d.content_type, d.metadata_json, ' +
  'd.updated_at, d.content_hash';

export const HEAD_COLUMNS = 'd.id, d.source, d.connector, d.source_id, d.source_url, d.title, d.updated_at';

export type HeadRow = Pick<
  DocumentRow,
  'id' | 'source' | 'connector' | 'source_id' | 'source_url' | 'title' | 'updated_at'
>;

export function toHead(row: HeadRow): DocumentHead {
  return {
    id: row.id,
    source: row.source,
    connector: row.connector,
    sourceId: row.source_id,
    sourceUrl: row.source_url,
    title: row.title,
    updatedAt: row.updated_at,
  };
}

export const CHUNK_COLUMNS =
  'c.id, d.id AS document_id, c.chunk_index, c.text, c.content_hash, c.line_start, c.line_end, c.symbol, c.lang';

/** Chunk columns under names that cannot collide with DOCUMENT_COLUMNS in a joined row. */
export const JOINED_CHUNK_COLUMNS =
  'c.id AS chunk_id, c.chunk_index, c.text AS chunk_text, c.content_hash AS chunk_hash, c.line_start, ' +
  'c.line_end, c.symbol, c.lang';

export interface JoinedChunkRow {
  chunk_id: string;
  chunk_index: number;
  chunk_text: string;
  chunk_hash: string;
  line_start: number | null;
  line_end: number | null;
  symbol: string | null;
  lang: string | null;
}

export function toJoinedChunk(row: JoinedChunkRow & { id: string }): Chunk {
  return {
    id: row.chunk_id,
    documentId: row.id,
    chunkIndex: row.chunk_index,
    text: row.chunk_text,
    contentHash: row.chunk_hash,
    lineStart: row.line_start,
    lineEnd: row.line_end,
    symbol: row.symbol,
    lang: row.lang,
  };
}

export function toDocument(row: DocumentRow): StoredDocument {
  return {
    ...toHead(row),
    body: row.body,
    contentType: row.content_type,
    metadata: JSON.parse(row.metadata_json) as Record<string, unknown>,
    contentHash: row.content_hash,
  };
}

export const toChunk = chunkFromRecord;
