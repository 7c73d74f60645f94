// Writes documents and their chunks. Each public call is one atomic unit (transaction.ts), so a crash
// leaves every document either fully old or fully new. Chunks are diffed by id: unchanged chunks keep their row
// (and embedding); the contentless FTS table gets explicit deletes, as it cannot find old values itself.
// FTS rows get CJK-segmented title and text (core/search/segment-cjk.ts) and the symbol's words (keyword-text.ts);
// stored chunks keep the original. A kept chunk whose lines or language moved gets them updated in place.
import type { Chunk, StoredDocument, UpsertOutcome } from '../../core/api/plugin.ts';
import { segmentCjk } from '../../core/api/algorithms.ts';
import { keywordText } from './keyword-text.ts';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { UnitOfWork } from './transaction.ts';

interface OldChunk {
  rowid: number;
  id: string;
  chunk_index: number;
  text: string;
  line_start: number | null;
  line_end: number | null;
  symbol: string | null;
  lang: string | null;
}

export class DocumentWriter {
  private readonly unit: UnitOfWork;
  private readonly selectDoc: StatementSync;
  private readonly insertDoc: StatementSync;
  private readonly updateDoc: StatementSync;
  private readonly selectChunks: StatementSync;
  private readonly insertChunk: StatementSync;
  private readonly moveChunk: StatementSync;
  private readonly placeChunk: StatementSync;
  private readonly deleteChunk: StatementSync;
  private readonly insertFts: StatementSync;
  private readonly deleteFts: StatementSync;
  private readonly touch: StatementSync;
  private readonly deleteDoc: StatementSync;

  constructor(db: DatabaseSync, unit: UnitOfWork) {
    this.unit = unit;
    this.selectDoc = db.prepare('SELECT rowid, title FROM documents WHERE id = ?');
    this.insertDoc = db.prepare(
      `INSERT INTO documents (id, source, connector, source_id, source_url, title, body, content_type, metadata_json,
         updated_at, content_hash, fingerprint, indexed_at)
       VALUES (:id, :source, :connector, :source_id, :source_url, :title, :body, :content_type, :metadata_json,
         :updated_at, :content_hash, :fingerprint, :indexed_at)`,
    );
    this.updateDoc = db.prepare(
      `UPDATE documents SET source = :source, connector = :connector, source_id = :source_id, source_url = :source_url,
         title = :title, body = :body, content_type = :content_type, metadata_json = :metadata_json,
         updated_at = :updated_at, content_hash = :content_hash, fingerprint = :fingerprint, indexed_at = :indexed_at
       WHERE id = :id`,
    );
    this.selectChunks = db.prepare(
      'SELECT rowid, id, chunk_index, text, line_start, line_end, symbol, lang FROM chunks WHERE document_rowid = ?',
    );
    this.insertChunk = db.prepare(
      `INSERT INTO chunks (id, document_rowid, chunk_index, text, content_hash, line_start, line_end, symbol, lang)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.moveChunk = db.prepare('UPDATE chunks SET chunk_index = ? WHERE rowid = ?');
    this.placeChunk = db.prepare('UPDATE chunks SET line_start = ?, line_end = ?, lang = ? WHERE rowid = ?');
    this.deleteChunk = db.prepare('DELETE FROM chunks WHERE rowid = ?');
    this.insertFts = db.prepare('INSERT INTO chunks_fts (rowid, title, text) VALUES (?, ?, ?)');
    this.deleteFts = db.prepare('DELETE FROM chunks_fts WHERE rowid = ?');
    this.touch = db.prepare('UPDATE documents SET fingerprint = ? WHERE id = ?');
    this.deleteDoc = db.prepare('DELETE FROM documents WHERE rowid = ?');
  }

  upsert(doc: StoredDocument, chunks: readonly Chunk[], fingerprint: string | null): UpsertOutcome {
    return this.unit.run(() => {
      const params = {
        id: doc.id,
        source: doc.source,
        connector: doc.connector,
        source_id: doc.sourceId,
        source_url: doc.sourceUrl,
        title: doc.title,
        body: doc.body,
        content_type: doc.contentType,
        metadata_json: JSON.stringify(doc.metadata),
        updated_at: doc.updatedAt,
        content_hash: doc.contentHash,
        fingerprint,
        indexed_at: new Date().toISOString(),
      };
      const existing = this.selectDoc.get(doc.id) as { rowid: number; title: string } | undefined;
      let docRowid: number;
      if (existing) {
        this.updateDoc.run(params);
        docRowid = existing.rowid;
      } else {
        docRowid = Number(this.insertDoc.run(params).lastInsertRowid);
      }
      return this.replaceChunks(docRowid, doc.title, existing !== undefined && existing.title !== doc.title, chunks);
    });
  }

  private replaceChunks(
    docRowid: number,
    title: string,
    titleChanged: boolean,
    chunks: readonly Chunk[],
  ): UpsertOutcome {
    const old = new Map<string, OldChunk>();
    for (const row of this.selectChunks.all(docRowid) as unknown as OldChunk[]) old.set(row.id, row);
    let written = 0;
    let deleted = 0;
    for (const chunk of chunks) {
      const kept = old.get(chunk.id);
      if (kept && (kept.symbol ?? null) === (chunk.symbol ?? null)) {
        old.delete(chunk.id);
        if (kept.chunk_index !== chunk.chunkIndex) this.moveChunk.run(chunk.chunkIndex, kept.rowid);
        if (
          kept.line_start !== (chunk.lineStart ?? null) ||
          kept.line_end !== (chunk.lineEnd ?? null) ||
          kept.lang !== (chunk.lang ?? null)
        )
          this.placeChunk.run(chunk.lineStart ?? null, chunk.lineEnd ?? null, chunk.lang ?? null, kept.rowid);
        if (titleChanged) {
          this.deleteFts.run(kept.rowid);
          this.insertFts.run(kept.rowid, segmentCjk(title), keywordText(kept.text, kept.symbol));
        }
        continue;
      }
      if (kept) {
        // Same text, another symbol: its indexed words change, so it is rewritten (its id is unique: delete first).
        old.delete(chunk.id);
        this.deleteFts.run(kept.rowid);
        this.deleteChunk.run(kept.rowid);
        deleted++;
      }
      const rowid = Number(
        this.insertChunk.run(
          chunk.id,
          docRowid,
          chunk.chunkIndex,
          chunk.text,
          chunk.contentHash,
          chunk.lineStart ?? null,
          chunk.lineEnd ?? null,
          chunk.symbol ?? null,
          chunk.lang ?? null,
        ).lastInsertRowid,
      );
      this.insertFts.run(rowid, segmentCjk(title), keywordText(chunk.text, chunk.symbol));
      written++;
    }
    for (const gone of old.values()) {
      this.deleteFts.run(gone.rowid);
      this.deleteChunk.run(gone.rowid);
    }
    return { chunksWritten: written, chunksDeleted: old.size + deleted };
  }

  touchFingerprint(id: string, fingerprint: string | null): void {
    this.unit.run(() => this.touch.run(fingerprint, id));
  }

  delete(ids: readonly string[]): number {
    let deleted = 0;
    for (const id of ids) {
      this.unit.run(() => {
        const existing = this.selectDoc.get(id) as { rowid: number } | undefined;
        if (!existing) return;
        for (const row of this.selectChunks.all(existing.rowid) as { rowid: number }[]) this.deleteFts.run(row.rowid);
        this.deleteDoc.run(existing.rowid); // chunks and embeddings go by ON DELETE CASCADE
        deleted++;
      });
    }
    return deleted;
  }
}
