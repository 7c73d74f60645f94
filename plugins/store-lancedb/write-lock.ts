// One commit at a time across processes on the same table folder. Lance resolves concurrent commits
// optimistically, and two merge-inserts of the same new key from two connections both insert it (a
// duplicate row; measured: 4 of 5 documents doubled). So each commit holds `kbctx.write.lock`, created
// exclusively with the holder's pid; a lock whose holder died (kill -9) is taken over.
import { openSync, closeSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const LOCK_FILE = 'kbctx.write.lock';
const POLL_MS = 5;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function holderOf(file: string): number | null {
  try {
    return Number(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Runs `fn` holding the folder's write lock. */
export async function withWriteLock<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const file = path.join(dir, LOCK_FILE);
  for (;;) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = holderOf(file);
      if (holder === null) continue; // released meanwhile
      // An empty file is a holder between open and write: wait for it like a live one.
      if (holder > 0 && !alive(holder)) {
        try {
          unlinkSync(file);
        } catch {
          // another waiter took it over first
        }
        continue;
      }
      await sleep(POLL_MS);
    }
  }
  try {
    return await fn();
  } finally {
    try {
      unlinkSync(file);
    } catch {
      // already gone
    }
  }
}
