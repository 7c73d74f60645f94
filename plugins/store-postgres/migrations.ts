// Schema migrations for the PostgreSQL store, applied in order, one transaction each, under a session
// advisory lock so replicas starting together never run them twice. `kbctx_schema` records the version.
// Never edit a released migration: append a new one. Tables live in the URL's default schema.
import type pg from 'pg';
import { MIGRATE_LOCK_KEY } from './keys.ts';
import { connect } from './pool.ts';

const MIGRATIONS: readonly string[] = [
  // 1: documents, chunks, embeddings, sync state; the change feed: every write transaction stamps the
  // rows it changes with one value of kbctx_version and records it in kbctx_meta.version (the committed
  // high-water mark); deletions and embedding clears are events. `epoch` identifies this database.
  `
  CREATE SEQUENCE kbctx_version;
  CREATE TABLE kbctx_meta (
    id integer PRIMARY KEY CHECK (id = 1),
    epoch text NOT NULL,
    version bigint NOT NULL DEFAULT 0
  );
  INSERT INTO kbctx_meta (id, epoch) VALUES (1, md5(random()::text || clock_timestamp()::text));

  -- One row per write transaction: a mirror checks that the version it holds is still in the history
  -- (a restore, or commits lost in a crash with synchronous_commit off, rewinds it), else rebuilds.
  CREATE TABLE kbctx_commits (
    version bigint PRIMARY KEY,
    token text NOT NULL,
    committed_at timestamptz NOT NULL DEFAULT now()
  );

  CREATE TABLE kbctx_documents (
    id text PRIMARY KEY,
    position bigserial NOT NULL UNIQUE,
    connector text NOT NULL,
    source text NOT NULL,
    source_id text NOT NULL,
    source_url text,
    title text NOT NULL,
    body text NOT NULL,
    content_type text NOT NULL,
    metadata text NOT NULL DEFAULT '{}',
    updated_at text NOT NULL,
    content_hash text NOT NULL,
    fingerprint text,
    indexed_at text NOT NULL,
    version bigint NOT NULL
  );
  CREATE INDEX kbctx_documents_connector ON kbctx_documents (connector);
  CREATE INDEX kbctx_documents_version ON kbctx_documents (version, position);

  CREATE TABLE kbctx_chunks (
    rowid bigserial PRIMARY KEY,
    id text NOT NULL UNIQUE,
    document_id text NOT NULL REFERENCES kbctx_documents (id) ON DELETE CASCADE,
    chunk_index integer NOT NULL,
    text text NOT NULL,
    content_hash text NOT NULL
  );
  CREATE INDEX kbctx_chunks_document ON kbctx_chunks (document_id, chunk_index);

  CREATE TABLE kbctx_embeddings (
    chunk_rowid bigint PRIMARY KEY REFERENCES kbctx_chunks (rowid) ON DELETE CASCADE,
    model text NOT NULL,
    dims integer NOT NULL,
    content_hash text NOT NULL,
    vector bytea NOT NULL,
    created_at text NOT NULL,
    version bigint NOT NULL
  );
  CREATE INDEX kbctx_embeddings_version ON kbctx_embeddings (version, chunk_rowid);

  CREATE TABLE kbctx_sync_state (
    connector text PRIMARY KEY,
    checkpoint text,
    last_sync_at text,
    version bigint NOT NULL
  );
  CREATE INDEX kbctx_sync_state_version ON kbctx_sync_state (version);

  CREATE TABLE kbctx_events (
    version bigint NOT NULL,
    kind text NOT NULL CHECK (kind IN ('delete_document', 'clear_embeddings')),
    document_id text
  );
  CREATE INDEX kbctx_events_version ON kbctx_events (version);
  `,
  // 2: leases on pending chunks (claims.ts), so two embedders on any replicas never compute the same
  // chunk; an expired lease is taken over (ADR 0126). Not part of the change feed: replicas never mirror it.
  `
  CREATE TABLE kbctx_embedding_claims (
    chunk_rowid bigint PRIMARY KEY REFERENCES kbctx_chunks (rowid) ON DELETE CASCADE,
    owner text NOT NULL,
    expires_at timestamptz NOT NULL
  );
  `,
  // 3: how each connector's last sync run ended (sync-runs.ts), apart from kbctx_sync_state, which only
  // a completed run advances. Not part of the change feed: replicas read it from PostgreSQL.
  `
  CREATE TABLE kbctx_sync_runs (connector text PRIMARY KEY, ended_at text NOT NULL, errors integer NOT NULL,
    failure text);
  `,
  // 4: each chunk's 1-based, inclusive source lines, symbol path and language (ADR 0210). Existing chunks get NULL;
  // forgetting fingerprints and content hashes makes the next sync re-read every document (unchanged chunks keep
  // their rows and embeddings and get their lines; the rewrite reaches the mirrors through the change feed).
  `
  ALTER TABLE kbctx_chunks ADD COLUMN line_start integer, ADD COLUMN line_end integer, ADD COLUMN symbol text,
    ADD COLUMN lang text;
  UPDATE kbctx_documents SET fingerprint = NULL, content_hash = '';
  `,
];

export const PG_SCHEMA_VERSION = MIGRATIONS.length;

/** Brings the database to PG_SCHEMA_VERSION. Safe to call on every open, from any number of replicas at once. */
export async function migrate(pool: pg.Pool, url: string): Promise<void> {
  const client = await connect(pool, url);
  let broken = false;
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATE_LOCK_KEY]);
    try {
      await client.query('CREATE TABLE IF NOT EXISTS kbctx_schema (version integer NOT NULL)');
      const rows = (await client.query<{ version: number }>('SELECT version FROM kbctx_schema')).rows;
      const current = rows[0]?.version ?? 0;
      if (current > PG_SCHEMA_VERSION) {
        throw new Error(
          `database schema version ${current} is newer than this kbctx (${PG_SCHEMA_VERSION}); upgrade kbctx`,
        );
      }
      for (let v = current; v < PG_SCHEMA_VERSION; v++) {
        await client.query('BEGIN');
        try {
          await client.query(MIGRATIONS[v] ?? '');
          await client.query(
            v === 0 ? 'INSERT INTO kbctx_schema (version) VALUES (1)' : 'UPDATE kbctx_schema SET version = $1',
            v === 0 ? [] : [v + 1],
          );
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATE_LOCK_KEY]);
    }
  } catch (error) {
    broken = true;
    throw error;
  } finally {
    client.release(broken);
  }
}
