// One fetch per model at a time across processes: `<folder>.lock` created exclusively, holding the
// owner's pid. A lock whose process is gone (a kill -9) is stale and taken over; otherwise the caller
// waits, polling, and tells the user once whom it waits for.
import { openSync, readFileSync, statSync, unlinkSync, writeSync, closeSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { processAlive } from '../../core/api/plugin.ts';

const POLL_MS = 200;
/** A lock file still empty after this long lost its writer between create and write. */
const EMPTY_STALE_MS = 10_000;

export interface FolderLock {
  release(): void;
}

export async function lockFolder(lockFile: string, onWait: (pid: number | null) => void): Promise<FolderLock> {
  let told = false;
  for (;;) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return { release: () => unlinkQuietly(lockFile) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readHolder(lockFile);
    if (holder === 'stale') {
      unlinkQuietly(lockFile);
      continue;
    }
    if (!told) {
      told = true;
      onWait(holder);
    }
    await sleep(POLL_MS);
  }
}

/** The holder's pid, null while unknown (just created), or 'stale'. */
function readHolder(lockFile: string): number | null | 'stale' {
  let text: string;
  try {
    text = readFileSync(lockFile, 'utf8').trim();
  } catch {
    return null; // gone between open and read: the next round takes it
  }
  const pid = Number(text);
  if (!Number.isInteger(pid) || pid <= 0) {
    try {
      return Date.now() - statSync(lockFile).mtimeMs > EMPTY_STALE_MS ? 'stale' : null;
    } catch {
      return null;
    }
  }
  return processAlive(pid) ? pid : 'stale';
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}
