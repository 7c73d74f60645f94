// One writer per connector across processes: an advisory lock file per connector beside the database
// (`<db dir>/locks/`), created exclusively. A lock whose process is gone (kill -9) is stale and taken over.
// The locks of this store and of every store with a local index (LanceDB's on disk, PostgreSQL's read copy).
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { KbctxError, processAlive, waitForLock, type ConnectorLocks, type ReleaseLock } from '../../core/api/plugin.ts';

interface LockFile {
  pid: number;
  /** Random per process: a container restarted with the same pid (often 1) is not its predecessor. */
  token: string;
  owner: string;
  started_at: string;
}

let processToken: string | undefined;
/** Drawn on the first lock (node:crypto is not loaded by commands that take none). */
const token = (): string => (processToken ??= process.getBuiltinModule('node:crypto').randomUUID());

/**
 * Takes the connector's lock for `owner` ("kbctx sync", "kbctx serve"); throws KbctxError `conflict` naming the holder.
 */
export function lockConnector(dbPath: string, label: string, owner: string): ReleaseLock {
  const dir = path.join(path.dirname(dbPath), 'locks');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${label.replace(/[^\w.-]/g, '_')}.lock`);
  for (let attempt = 0; attempt < 2; attempt++) {
    // Written aside, then hard-linked into place: the lock never exists without its content.
    const draft = `${file}.${process.pid}`;
    writeFileSync(
      draft,
      JSON.stringify({
        pid: process.pid,
        token: token(),
        owner,
        started_at: new Date().toISOString(),
      } satisfies LockFile),
    );
    try {
      linkSync(draft, file);
      rmSync(draft, { force: true });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        if (readHolder(file)?.token === token()) rmSync(file, { force: true });
      };
    } catch (error) {
      rmSync(draft, { force: true });
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readHolder(file);
    const ours = holder?.token === token();
    if (holder && !ours && holder.pid !== process.pid && processAlive(holder.pid)) {
      throw new KbctxError(
        'conflict',
        `${label} is being synced by ${holder.owner} (pid ${holder.pid}, since ${holder.started_at}); ` +
          `wait for it to finish (GET /sync/status on the server shows progress) and run the command again`,
      );
    }
    if (ours) throw new KbctxError('conflict', `${label} is already being synced by this process`);
    // Stale (its process died, or the file is unreadable): move it aside, then try once more.
    try {
      renameSync(file, `${file}.stale-${process.pid}`);
      rmSync(`${file}.stale-${process.pid}`, { force: true });
    } catch {
      // another process took it over first; the next attempt reports it
    }
  }
  throw new KbctxError('conflict', `${label}: could not take the sync lock ${file}`);
}

function readHolder(file: string): LockFile | null {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockFile>;
    return typeof parsed.pid === 'number'
      ? {
          pid: parsed.pid,
          token: String(parsed.token),
          owner: String(parsed.owner),
          started_at: String(parsed.started_at),
        }
      : null;
  } catch {
    return null;
  }
}

/** Like lockConnector, but while another process holds the lock waits (up to `timeoutMs`), calling `onWait` once. */
export async function waitForConnectorLock(
  dbPath: string,
  label: string,
  owner: string,
  options: { timeoutMs: number; onWait?: ((message: string) => void) | undefined },
): Promise<ReleaseLock> {
  // core's waitForLock imports its module when a lock is waited for (a sync), not at start-up (ADR 0130).
  return waitForLock(() => Promise.resolve().then(() => lockConnector(dbPath, label, owner)), options);
}

/** A local store's ConnectorLocks: the lock files above, beside the database. */
export function fileLocks(dbPath: string): ConnectorLocks {
  return {
    acquire: (label, owner) => Promise.resolve(lockConnector(dbPath, label, owner)),
    wait: (label, owner, options) => waitForConnectorLock(dbPath, label, owner, options),
  };
}
