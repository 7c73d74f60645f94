// Schema migrations, applied in order inside one transaction each; PRAGMA user_version records the
// schema version. Never edit a released migration: append a new one.
import type { DatabaseSync } from 'node:sqlite';

const MIGRATIONS: readonly string[] = [
  // 1: documents, chunks, keyword index, sync state, embeddings.
  `
  CREATE TABLE documents (
    rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    source TEXT NOT NULL,
    connector TEXT NOT NULL,
    source_id TEXT NOT NULL,
    source_url TEXT,
    title TEXT NOT NULL,
    body TEXT NOT NULL,
    content_type TEXT NOT NULL,
    metadata_json TEXT NOT NULL DEFAULT '{}',
    updated_at TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    fingerprint TEXT,
    indexed_at TEXT NOT NULL
  );
  CREATE INDEX documents_connector ON documents(connector);
  CREATE INDEX documents_source ON documents(source);

  CREATE TABLE chunks (
    rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    document_rowid INTEGER NOT NULL REFERENCES documents(rowid) ON DELETE CASCADE,
    chunk_index INTEGER NOT NULL,
    text TEXT NOT NULL,
    content_hash TEXT NOT NULL
  );
  CREATE INDEX chunks_document ON chunks(document_rowid, chunk_index);

  CREATE VIRTUAL TABLE chunks_fts USING fts5(
    title, text, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2'
  );
  CREATE VIRTUAL TABLE chunks_vocab USING fts5vocab(chunks_fts, 'row');

  CREATE TABLE sync_state (
    connector TEXT PRIMARY KEY,
    checkpoint TEXT,
    last_sync_at TEXT
  );

  CREATE TABLE embeddings (
    chunk_rowid INTEGER PRIMARY KEY REFERENCES chunks(rowid) ON DELETE CASCADE,
    model TEXT NOT NULL,
    dims INTEGER NOT NULL,
    content_hash TEXT NOT NULL,
    vector BLOB NOT NULL,
    created_at TEXT NOT NULL
  );
  `,
  // 2: a generation counter bumped by every embedding write or delete (cascades included), so the
  // approximate vector index on disk can tell, in one read, whether it is in step with this table.
  `
  CREATE INDEX embeddings_space ON embeddings(model, dims);
  CREATE TABLE embedding_state (id INTEGER PRIMARY KEY CHECK (id = 1), generation INTEGER NOT NULL);
  INSERT INTO embedding_state (id, generation) VALUES (1, 0);
  CREATE TRIGGER embeddings_generation_insert AFTER INSERT ON embeddings
    BEGIN UPDATE embedding_state SET generation = generation + 1 WHERE id = 1; END;
  CREATE TRIGGER embeddings_generation_update AFTER UPDATE ON embeddings
    BEGIN UPDATE embedding_state SET generation = generation + 1 WHERE id = 1; END;
  CREATE TRIGGER embeddings_generation_delete AFTER DELETE ON embeddings
    BEGIN UPDATE embedding_state SET generation = generation + 1 WHERE id = 1; END;
  `,
  // 3: the keyword postings beside the database (ADR 0100) follow a log of changed chunks: every chunk
  // insert or delete, and every chunk of a document whose title changed (its FTS rows are rewritten).
  // The epoch tells a postings file derived from another database (a recreated one) from ours.
  `
  CREATE VIRTUAL TABLE chunks_instances USING fts5vocab(chunks_fts, 'instance');
  CREATE TABLE keyword_log (seq INTEGER PRIMARY KEY AUTOINCREMENT, chunk_rowid INTEGER NOT NULL);
  CREATE TABLE keyword_state (id INTEGER PRIMARY KEY CHECK (id = 1), epoch TEXT NOT NULL);
  INSERT INTO keyword_state (id, epoch) VALUES (1, lower(hex(randomblob(8))));
  CREATE TRIGGER keyword_log_insert AFTER INSERT ON chunks
    BEGIN INSERT INTO keyword_log (chunk_rowid) VALUES (new.rowid); END;
  CREATE TRIGGER keyword_log_delete AFTER DELETE ON chunks
    BEGIN INSERT INTO keyword_log (chunk_rowid) VALUES (old.rowid); END;
  CREATE TRIGGER keyword_log_title AFTER UPDATE OF title ON documents WHEN old.title IS NOT new.title
    BEGIN INSERT INTO keyword_log (chunk_rowid) SELECT rowid FROM chunks WHERE document_rowid = new.rowid; END;
  `,
  // 4: leases on pending chunks, so two embedders (a sync and \`kbctx embed pending\`, the server and
  // the CLI) never compute the same chunk; an expired lease is taken over (ADR 0126).
  `
  CREATE TABLE embedding_claims (chunk_rowid INTEGER PRIMARY KEY, owner TEXT NOT NULL, expires_at INTEGER NOT NULL);
  `,
  // 5: how each connector's last sync run ended (\`kbctx sources\`, doctor), apart from sync_state,
  // which only a completed run advances.
  `
  CREATE TABLE sync_runs (connector TEXT PRIMARY KEY, ended_at TEXT NOT NULL, errors INTEGER NOT NULL, failure TEXT);
  `,
  // 6: each chunk's 1-based, inclusive source lines, symbol path and language (ADR 0210). Existing chunks get NULL;
  // forgetting the documents' fingerprints and content hashes makes the next sync re-read and re-chunk every
  // document: unchanged chunks keep their rows and embeddings and get their lines.
  `
  ALTER TABLE chunks ADD COLUMN line_start INTEGER;
  ALTER TABLE chunks ADD COLUMN line_end INTEGER;
  ALTER TABLE chunks ADD COLUMN symbol TEXT;
  ALTER TABLE chunks ADD COLUMN lang TEXT;
  UPDATE documents SET fingerprint = NULL, content_hash = '';
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Brings the database to SCHEMA_VERSION (tests: to an older `target`). Safe to call on every open. */
export function migrate(db: DatabaseSync, target = SCHEMA_VERSION): void {
  const current = Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
  if (current > SCHEMA_VERSION) {
    throw new Error(`database schema version ${current} is newer than this kbctx (${SCHEMA_VERSION}); upgrade kbctx`);
  }
  for (let v = current; v < target; v++) {
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec(MIGRATIONS[v] ?? '');
      db.exec(`PRAGMA user_version = ${v + 1}`);
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }
}
