// Where the Lance table lives, and what differs between a local folder and a bucket (ADR 0231): connecting and
// opening, the write lock (a lock file, or a lease object: ADR 0230), how a process learns that another one
// committed (the generation file, or the table's latest version polled every FRESH_MS), and the size.
// The store (lance-store.ts) reads and writes through Lance the same way in both.
import { KbctxError, configError, type ConnectorLocks, type IndexAccess } from '../../core/api/plugin.ts';
import { isObjectStorePath } from './api.ts';
import { checkIndexAccess } from '../store-sqlite/api.ts';
import { pathProblem } from '../../core/api/algorithms.ts';
import type { Connection, Table } from '@lancedb/lancedb';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { LanceModule } from './lance-module.ts';
import { withWriteLock } from './write-lock.ts';
import { TABLE, tableSchema } from './rows.ts';
import type { ObjectStoreLocks } from './object-store-locks.ts';

const GENERATION_FILE = 'kbctx.generation';
/**
 * A store in a bucket asks for the table's latest version this often (and before a read when the last answer is
 * older): a commit made elsewhere shows within 1 s.
 */
const FRESH_MS = 500;
/** `[db] lock_lease` when the caller gives none (ADR 0230). */
const DEFAULT_LEASE_SECS = 15;

/** `[db]` settings for an index on object storage. */
export interface StorageSettings {
  storageOptions?: Readonly<Record<string, string>> | undefined;
  lockLeaseSecs?: number | undefined;
  /**
   * How often a bucket is asked for the latest version (default FRESH_MS; 0: before every read, polled every 100 ms).
   */
  freshMs?: number | undefined;
}

export interface TablePlace {
  readonly db: Connection;
  readonly table: Table;
  /** Why the index cannot be written here (null: it can). */
  readonly readOnly: string | null;
  /** Runs one commit holding the table's write lock (one writer at a time across processes and machines). */
  withWriteLock<T>(fn: () => Promise<T>): Promise<T>;
  /** Learns what other processes committed (remote: at most every FRESH_MS); then writtenVersion() is current. */
  refresh(): Promise<void>;
  /** The newest table version known to be committed by any process. */
  writtenVersion(): number;
  /** Records a version this process committed. */
  wrote(version: number): void;
  /** The per-connector sync locks in the bucket (null: the lock files beside a local folder, or none). */
  readonly connectorLocks: ConnectorLocks | null;
  sizeBytes(): Promise<number>;
  close(): Promise<void>;
}

export function openTablePlace(
  lance: LanceModule,
  dir: string,
  access: IndexAccess,
  settings: StorageSettings = {},
): Promise<TablePlace> {
  return isObjectStorePath(dir) ? openRemotePlace(lance, dir, access, settings) : openLocalPlace(lance, dir, access);
}

async function openLocalPlace(lance: LanceModule, dir: string, access: IndexAccess): Promise<TablePlace> {
  const { exists, readOnly } = checkIndexAccess(
    dir,
    [dir, path.join(path.dirname(dir), 'locks')],
    access,
    'the Lance table, its generation file and the locks folder beside it',
  );
  try {
    if (!exists) mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw configError(
      `cannot create the LanceDB index at ${dir}: ${pathProblem(error, dir) ?? (error as Error).message}`,
      error,
    );
  }
  const { db, table } = await connectTable(lance, dir, access, {}, async (db) =>
    (await db.tableNames()).includes(TABLE) ? db.openTable(TABLE) : null,
  );
  const file = path.join(dir, GENERATION_FILE);
  const writtenVersion = (): number => {
    try {
      return Number(readFileSync(file, 'utf8')) || 0;
    } catch {
      return 0;
    }
  };
  return {
    db,
    table,
    readOnly,
    withWriteLock: (fn) => withWriteLock(dir, fn),
    refresh: async () => undefined,
    writtenVersion,
    wrote(version) {
      if (version <= writtenVersion()) return;
      const tmp = `${file}.${process.pid}`;
      writeFileSync(tmp, String(version));
      renameSync(tmp, file);
    },
    connectorLocks: null,
    sizeBytes: async () => folderSize(dir),
    close: async () => undefined,
  };
}

async function openRemotePlace(
  lance: LanceModule,
  url: string,
  access: IndexAccess,
  settings: StorageSettings,
): Promise<TablePlace> {
  const { parseLocation } = await import('./object-store.ts');
  const location = parseLocation(url);
  const storageOptions = { ...settings.storageOptions };
  const { db, table } = await connectTable(lance, url, access, storageOptions, async (db) => {
    // A bucket's table list needs a listing some servers answer empty (s3rver): open by name instead.
    try {
      return await db.openTable(TABLE);
    } catch (error) {
      if (/was not found|not found:/i.test((error as Error).message)) return null;
      throw error;
    }
  });
  if (location.scheme !== 's3') {
    // kbctx's lock objects are S3 requests: on gs:// and az:// the index is read here and written elsewhere.
    const readOnly =
      `kbctx writes to ${location.scheme}:// buckets only through S3 (its locks are S3 objects, ADR 0230); ` +
      'serve it read-only and write the index with s3:// or a local copy';
    return await remotePlace(db, table, readOnly, null, settings.freshMs ?? FRESH_MS);
  }
  const { ObjectStoreLocks } = await import('./object-store-locks.ts');
  const locks = await ObjectStoreLocks.open(
    location,
    storageOptions,
    (settings.lockLeaseSecs ?? DEFAULT_LEASE_SECS) * 1000,
  );
  return remotePlace(db, table, null, locks, settings.freshMs ?? FRESH_MS);
}

async function remotePlace(
  db: Connection,
  table: Table,
  readOnly: string | null,
  locks: ObjectStoreLocks | null,
  freshMs: number,
): Promise<TablePlace> {
  let latest = await table.version();
  let checkedAt = performance.now();
  let failure: KbctxError | null = null;
  let checking: Promise<void> | null = null;
  const check = async (): Promise<void> => {
    try {
      // readConsistencyInterval 0: version() asks the bucket for the newest manifest.
      latest = Math.max(latest, await table.version());
      failure = null;
    } catch (error) {
      const message = (error as Error).message.split(/\s+Caused by:|\n/)[0];
      failure = new KbctxError('unavailable', `the LanceDB index in the bucket cannot be read: ${message}`, {
        cause: error,
      });
      throw failure;
    } finally {
      checkedAt = performance.now();
    }
  };
  const refresh = (): Promise<void> => (checking ??= check().finally(() => (checking = null)));
  // generation() is synchronous (asked before every cached search): a poll keeps it current between reads.
  const poll = setInterval(() => void refresh().catch(() => undefined), freshMs > 0 ? freshMs : 100);
  poll.unref();
  return {
    db,
    table,
    readOnly,
    withWriteLock: (fn) => {
      if (!locks) throw new KbctxError('unavailable', readOnly ?? 'this index cannot be written');
      return locks.withWriteLock(fn);
    },
    refresh: () => (performance.now() - checkedAt < freshMs && !failure ? Promise.resolve() : refresh()),
    writtenVersion() {
      if (failure) throw failure;
      return latest;
    },
    wrote: (version) => void (latest = Math.max(latest, version)),
    connectorLocks: locks?.connectorLocks() ?? null,
    sizeBytes: async () => (locks ? (await import('./object-store.ts')).bucketSize(locks.client, locks.location) : 0),
    close: async () => {
      clearInterval(poll);
      await checking?.catch(() => undefined);
      await locks?.close();
    },
  };
}

/** Connects and opens the table (`open` answers null when there is none); only `create` makes a missing one. */
async function connectTable(
  lance: LanceModule,
  where: string,
  access: IndexAccess,
  storageOptions: Record<string, string>,
  open: (db: Connection) => Promise<Table | null>,
): Promise<{ db: Connection; table: Table }> {
  try {
    // readConsistencyInterval 0: every read and write starts from the latest version (no stale handle).
    const db = await lance.lancedb.connect(where, { readConsistencyInterval: 0, storageOptions });
    const found = await open(db);
    if (!found && access !== 'create')
      throw new KbctxError(
        'unavailable',
        `no index at ${where} (no ${TABLE} table); run \`kbctx sync all\` to create it (or check [db] path and -c)`,
        { details: { index: 'missing' } },
      );
    const table = found ?? (await db.createEmptyTable(TABLE, tableSchema(lance), { existOk: true }));
    return { db, table };
  } catch (error) {
    if (error instanceof KbctxError) throw error;
    const message = (error as Error).message.split(/\s+Caused by:|\n/)[0];
    throw new KbctxError('config_error', `cannot open the LanceDB index at ${where}: ${message}`, { cause: error });
  }
}

function folderSize(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) {
      try {
        total += statSync(path.join(entry.parentPath, entry.name)).size;
      } catch {
        // removed meanwhile (a compaction)
      }
    }
  }
  return total;
}
