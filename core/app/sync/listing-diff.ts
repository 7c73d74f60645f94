// The diff of what a scan listed against what the store holds: which entries are unchanged (same fingerprint: not
// even read), which need loading, and which stored documents are gone. Pure: the caller reads and writes.
import { documentId } from '../../domain/ids.ts';
import type { ScanEntry, ScanResult, UnreadablePath } from '../../connectors/connector.ts';
import type { DocumentState } from '../../store/store.ts';
import type { SyncReport } from './report.ts';

export interface ListingSplit {
  /** Entries to load: new, changed, without a fingerprint, or all of them in a full pass; in listing order. */
  changed: ScanEntry[];
  /** Ids of the stored documents the listing still has unchanged (the run adds the ones it loads). */
  keep: Set<string>;
  unchanged: number;
}

/**
 * Splits the listing by fingerprint; fast, no hashing and no promise per item. `full` loads everything. An entry's
 * stored copy is found by (source, source id); an entry without its own source is the connector's.
 */
export function splitUnchanged(
  entries: readonly ScanEntry[],
  stored: ReadonlyMap<string, DocumentState>,
  connector: string,
  full: boolean,
): ListingSplit {
  const keep = new Set<string>();
  const byKey = new Map([...stored.values()].map((s) => [`${s.source}\u0000${s.sourceId}`, s]));
  const changed: ScanEntry[] = [];
  let unchanged = 0;
  for (const entry of entries) {
    const prior = byKey.get(`${entry.source ?? connector}\u0000${entry.sourceId}`);
    if (!full && prior && entry.fingerprint !== null && prior.fingerprint === entry.fingerprint) {
      keep.add(prior.id);
      unchanged++;
    } else changed.push(entry);
  }
  return { changed, keep, unchanged };
}

/**
 * The stored documents to delete after the run: those a complete listing (and not a partial pass) no longer has,
 * except what is unknown (under an unreadable path), plus those the source reports deleted; never one kept.
 */
export function deletionsOf(
  scan: Pick<ScanResult, 'complete' | 'deleted'>,
  stored: ReadonlyMap<string, DocumentState>,
  keep: ReadonlySet<string>,
  unknown: (sourceId: string) => boolean,
  connector: string,
  partial: boolean,
): string[] {
  const gone = new Set<string>();
  if (scan.complete && !partial) for (const [id, s] of stored) if (!keep.has(id) && !unknown(s.sourceId)) gone.add(id);
  for (const sourceId of scan.deleted) gone.add(documentId(connector, sourceId));
  return [...gone].filter((id) => stored.has(id) && !keep.has(id));
}

/**
 * Counts what the scan could not read as errors, one note each, and returns the test for stored
 * source ids that are unknown (at or under an unreadable path): those are not deleted.
 */
export function recordUnreadable(
  unreadable: readonly UnreadablePath[],
  report: SyncReport,
): (sourceId: string) => boolean {
  for (const u of unreadable) {
    report.errors++;
    const kept = u.sourceId.endsWith('/') ? ', its indexed documents are kept' : '';
    report.notes.push(`error ${u.sourceId}: cannot read (${u.reason}); skipped${kept}`);
  }
  const ids = new Set(unreadable.map((u) => u.sourceId));
  const folders = unreadable.map((u) => u.sourceId).filter((id) => id.endsWith('/'));
  return (sourceId) => ids.has(sourceId) || folders.some((f) => sourceId.startsWith(f));
}
