// Opens the SQLite file for what the command needs (StoreOptions.access): created and migrated when
// it may write; read-only (no pragma or migration that writes) when a reader finds the file or its
// folder not writable, `immutable` when SQLite could not create the WAL's -shm file there.
import { configError, KbctxError, type IndexAccess } from '../../core/api/plugin.ts';
import { checkIndexAccess } from './index-access.ts';
import { pathProblem } from '../../core/api/algorithms.ts';
import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DatabaseSync } from 'node:sqlite';
import { migrate, SCHEMA_VERSION } from './migrations.ts';

/** SQLite result codes caused by the path itself: SQLITE_PERM, SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_NOTADB. */
const USER_PATH_ERRORS = new Set([3, 8, 14, 26]);
const FILES = 'the database, its -wal and -shm files, the keyword and vector files and the locks folder';

export interface OpenedDatabase {
  db: DatabaseSync;
  /** Why it was opened read-only, null when writable. */
  readOnly: string | null;
}

export function openDatabase(file: string, access: IndexAccess = 'create'): OpenedDatabase {
  if (file === ':memory:') return { db: openWritable(file), readOnly: null };
  const folder = path.dirname(file);
  notAFile(file);
  const { exists, readOnly } = checkIndexAccess(file, [folder, path.join(folder, 'locks')], access, FILES);
  if (!exists) {
    try {
      mkdirSync(folder, { recursive: true });
    } catch (error) {
      throw configError(
        `cannot create the index at ${file}: ${pathProblem(error, file) ?? (error as Error).message}`,
        error,
      );
    }
  }
  try {
    if (readOnly === null) return { db: openWritable(file), readOnly: null };
    return { db: openReadOnly(file, readOnly), readOnly };
  } catch (error) {
    if (error instanceof KbctxError) throw error;
    // A path that is a folder, unreadable, or not an SQLite file is the configuration's fault.
    const code = USER_PATH_ERRORS.has((error as { errcode?: number }).errcode ?? -1) ? 'config_error' : 'internal';
    throw new KbctxError(code, `cannot open the index at ${file}: ${(error as Error).message}`, { cause: error });
  }
}

/** `[db] path` naming a device, a folder or a socket (`/dev/null`): the configuration's fault. */
function notAFile(file: string): void {
  let kind: string | null = null;
  try {
    const stat = statSync(file);
    if (stat.isDirectory()) kind = 'a folder';
    else if (!stat.isFile()) kind = 'not a regular file (a device, pipe or socket)';
  } catch {
    return; // missing (created, or refused by checkIndexAccess) or unreadable (SQLite says why)
  }
  if (kind !== null)
    throw configError(`cannot open the index at ${file}: it is ${kind}; set [db] path to an SQLite file`);
}

function openWritable(file: string): DatabaseSync {
  const db = new DatabaseSync(file, { enableForeignKeyConstraints: true, timeout: 10_000 });
  db.exec(
    'PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA temp_store = MEMORY; PRAGMA cache_size = -32000;',
  );
  migrate(db);
  return db;
}

/**
 * SQLite reads a WAL database read-only through its -shm file; where that file is missing and cannot
 * be created (a read-only folder), only as `immutable`, which ignores a -wal file: one with content
 * is refused rather than read past.
 */
function openReadOnly(file: string, why: string): DatabaseSync {
  const shm = existsSync(`${file}-shm`);
  if (!shm && nonEmpty(`${file}-wal`) && !canCreate(`${file}-shm`)) {
    throw new KbctxError(
      'unavailable',
      `cannot read the index at ${file}: ${why}, and its ${file}-wal holds changes SQLite can only read with ` +
        `write access to ${path.dirname(file)} (or a -shm file beside it); copy the index after a sync finished ` +
        `(its -wal merged), or grant write access`,
    );
  }
  const target = shm || canCreate(`${file}-shm`) ? file : immutable(file);
  const db = new DatabaseSync(target, { readOnly: true, enableForeignKeyConstraints: true, timeout: 10_000 });
  db.exec('PRAGMA temp_store = MEMORY; PRAGMA cache_size = -32000;');
  const version = Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
  if (version !== SCHEMA_VERSION) {
    db.close();
    const newer = version > SCHEMA_VERSION;
    throw new KbctxError(
      'unavailable',
      `cannot read the index at ${file}: its schema version is ${version}, this kbctx ` +
        `${newer ? 'is older' : `needs ${SCHEMA_VERSION}`}, and it is read-only (${why}); ` +
        `${newer ? 'upgrade kbctx' : 'run `kbctx init` once with write access to it'}`,
    );
  }
  return db;
}

function immutable(file: string): URL {
  const url = pathToFileURL(file);
  url.searchParams.set('immutable', '1');
  return url;
}

function nonEmpty(file: string): boolean {
  try {
    return statSync(file).size > 0;
  } catch {
    return false;
  }
}

/** Whether SQLite could create `file` (its folder is writable). */
function canCreate(file: string): boolean {
  try {
    accessSync(path.dirname(file), constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
