// `[db]` (the kernel's keys, schema.ts; the stores' keys, their plugins' `storeConfigs`, ADR 0239): which store opens
// the index, and the PostgreSQL URL checked at start-up. A `path` that is an object-storage URL (`s3://bucket/prefix`,
// ADR 0231) implies the LanceDB store. Light: the plugin API's entry loads it for `isObjectStorePath`.
import { configError } from '../domain/errors.ts';
import type { RawDb } from './owned-keys.ts';
import type { Config } from './types.ts';

/**
 * `[db]`: the engine defaults to what the url implies; an engine the url contradicts is refused. `stores`: what the
 * store sections' `toConfig` made of their keys (`poolSize`, `keywordEngine`, …).
 */
export function dbConfig(
  db: RawDb,
  url: string | null,
  abs: (p: string) => string,
  stores: Readonly<Record<string, unknown>>,
): Config['db'] {
  const remote = isObjectStorePath(db.path);
  const engine = db.engine?.trim() || (url === null ? (remote ? 'lancedb' : 'sqlite') : 'postgres');
  if (url !== null && engine !== 'postgres') {
    throw configError(
      `db.engine = "${engine}" contradicts db.url (or KBCTX_DATABASE_URL), a PostgreSQL database: set engine = "postgres" or remove the url`,
    );
  }
  if (url === null && engine === 'postgres')
    throw configError(
      'db.engine = "postgres" needs db.url (or KBCTX_DATABASE_URL): postgres://user:password@host:5432/database',
    );
  if (remote && (engine === 'sqlite' || engine === 'postgres'))
    throw configError(
      `db.path = "${db.path}" is object storage, which only the LanceDB store reads: set db.engine = "lancedb" ` +
        `(or leave engine out), or give a local path for ${engine === 'sqlite' ? 'SQLite' : "PostgreSQL's mirror"}`,
    );
  return { ...stores, engine, path: remote ? db.path.trim() : abs(db.path), url } as Config['db'];
}

/** A PostgreSQL URL, checked here so a typo fails at start-up naming the key, not at the first query. */
export function databaseUrl(url: string | undefined): string | null {
  if (url === undefined || url.trim() === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw configError(
      'db.url (or KBCTX_DATABASE_URL) is not a URL: expected postgres://user:password@host:5432/database',
    );
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw configError(
      `db.url (or KBCTX_DATABASE_URL) must be a postgres:// URL, not ${parsed.protocol}//…; for SQLite set db.path`,
    );
  }
  return url.trim();
}

// The schemes Lance reads (ADR 0231). Such a path is never resolved against the project folder.
const OBJECT_STORE = /^(s3|gs|az):\/\/[^/]/i;

/** Whether `[db] path` names object storage (`s3://bucket/prefix`, gs://, az://) rather than a local file or folder. */
export function isObjectStorePath(p: string): boolean {
  return OBJECT_STORE.test(p.trim());
}

/** The folder for a configuration's local files (caches): beside the index, or `<project>/.kbctx` for a bucket. */
export function localDataDir(dbPath: string, baseDir: string): string {
  const path = process.getBuiltinModule('node:path');
  return isObjectStorePath(dbPath) ? path.join(baseDir, '.kbctx') : path.dirname(dbPath);
}
