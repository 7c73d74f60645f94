// SQLite errors of a write translated at the store's edge: a full disk and a read-only database are
// the environment's, not a bug; they become `unavailable` naming the file. Others pass through.
import { KbctxError } from '../../core/api/plugin.ts';
import path from 'node:path';

const SQLITE_READONLY = 8;
const SQLITE_FULL = 13;

/** `error` as thrown by node:sqlite (its primary result code in the low byte of `errcode`). */
export function writeFailure(error: unknown, file: string): unknown {
  if (error instanceof KbctxError) return error;
  const primary = ((error as { errcode?: number } | null)?.errcode ?? -1) & 0xff;
  if (primary === SQLITE_FULL) {
    return new KbctxError(
      'unavailable',
      `the disk is full: cannot write the index at ${file} (${path.dirname(file)}); the write in progress was ` +
        `rolled back and the index is consistent: free space and sync again`,
      { cause: error },
    );
  }
  if (primary === SQLITE_READONLY) {
    return new KbctxError(
      'unavailable',
      `cannot write the index at ${file}: it is read-only (${(error as Error).message}); writing needs write ` +
        `access to ${path.dirname(file)}`,
      { cause: error },
    );
  }
  return error;
}
