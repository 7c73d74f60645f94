// A sync report in the contract's JSON names: `kbctx sync --json` prints it and the library's `sync()` returns it, so
// the two cannot drift (formerly core's host-wire.ts and the wire `SyncReport` of domain/wire-types.ts, ADR 0251).
import type { SyncReport } from '../../core/api/plugin.ts';

/** One connector's sync outcome on the wire (the library exports it as `SyncReport`). */
export interface SyncReportWire {
  connector: string;
  fetched: number;
  upserted: number;
  chunks_written: number;
  deleted: number;
  unchanged: number;
  skipped: number;
  errors: number;
  /** Skips and errors, one line each. */
  notes: string[];
  /** Set when the connector failed as a whole (nothing was deleted). */
  failure: { code: string; message: string } | null;
  duration_ms: number;
}

export function syncReportToWire(r: SyncReport): SyncReportWire {
  return {
    connector: r.connector,
    fetched: r.fetched,
    upserted: r.upserted,
    chunks_written: r.chunksWritten,
    deleted: r.deleted,
    unchanged: r.unchanged,
    skipped: r.skipped,
    errors: r.errors,
    notes: r.notes,
    failure: r.failure,
    duration_ms: Math.round(r.durationMs),
  };
}
