// The engine's sync report in the contract's JSON names (the built-in tools' answers, sources and stats are
// tools-builtin's wire.ts; the tool and agent registries' listings tool-registry's and agents-inline's, ADR 0249). The
// CLI and the library serialise through it, so field names cannot drift.
import type { SyncReport } from './sync.ts';

/** One connector's sync outcome, as `kbctx sync --json` prints it and the library's `sync()` returns it. */
export function syncReportToWire(r: SyncReport): Record<string, unknown> {
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
