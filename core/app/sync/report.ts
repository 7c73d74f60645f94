// A connector's sync report: its counts and notes, and how a failure (a KbctxError's code, else `internal`) is put in
// it. No I/O.
import { KbctxError } from '../../domain/errors.ts';

export interface SyncReport {
  connector: string;
  fetched: number;
  upserted: number;
  unchanged: number;
  chunksWritten: number;
  deleted: number;
  skipped: number;
  errors: number;
  /** Skips and errors, one line each (path and reason). */
  notes: string[];
  /** Ids of the documents this run wrote (absent: none): the embedding step after the connector embeds only these. */
  writtenIds?: string[] | undefined;
  /**
   * Set when a scheduled pass was skipped because the connector was synced lately (skipIfSyncedWithinMs): says when.
   */
  upToDate?: string | undefined;
  /** Set when the connector failed as a whole (nothing was deleted). */
  failure: { code: string; message: string } | null;
  durationMs: number;
}

export function emptyReport(connector: string): SyncReport {
  return {
    connector,
    fetched: 0,
    upserted: 0,
    unchanged: 0,
    chunksWritten: 0,
    deleted: 0,
    skipped: 0,
    errors: 0,
    notes: [],
    failure: null,
    durationMs: 0,
  };
}

/** The report of a connector whose sync failed as a whole before doing anything. */
export function failedReport(connector: string, error: unknown, durationMs = 0): SyncReport {
  return { ...emptyReport(connector), failure: toFailure(error), durationMs };
}

/** Marks the reports not yet failed as failed with `error` (the final commit's or the compaction's). */
export function failUnfailed(reports: SyncReport[], error: unknown): void {
  for (const r of reports) r.failure ??= toFailure(error);
}

export function toFailure(error: unknown): { code: string; message: string } {
  return error instanceof KbctxError
    ? { code: error.code, message: error.message }
    : { code: 'internal', message: (error as Error | null)?.message ?? String(error) };
}
