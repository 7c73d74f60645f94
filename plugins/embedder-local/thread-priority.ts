// Lowers the scheduling priority of the calling thread only (a worker thread computing embeddings), so
// on a busy machine the server's event loop wins the CPU from it: requests are answered while an
// embed runs, and the embed gets what is left. Linux only (there, a thread id is a valid target of
// setpriority); elsewhere, or without the right, it does nothing.
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** The niceness the embedding worker runs at: background work, below the default 0. */
export const EMBED_THREAD_NICENESS = 10;

/** Returns whether the thread now runs at `niceness` or lower. */
export function lowerThreadPriority(niceness = EMBED_THREAD_NICENESS): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const tid = Number(/task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'))?.[1]);
    if (!Number.isInteger(tid) || tid <= 0) return false;
    if (getPriority(tid) < niceness) setPriority(tid, niceness); // never raise it: that needs a privilege
    return true;
  } catch {
    return false; // no /proc, or not allowed: keep the inherited priority
  }
}
