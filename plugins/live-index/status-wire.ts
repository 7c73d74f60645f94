// The JSON shape of sync status (GET /sync/status, the MCP resource kbctx://sync/status; docs/sync.md).
import type { ConnectorStatus } from './api.ts';

export interface SyncStatusWire {
  connectors: {
    connector: string;
    state: 'idle' | 'running' | 'failed';
    last_started_at: string | null;
    last_finished_at: string | null;
    last_counts: Record<string, number> | null;
    last_error: string | null;
    next_run_at: string | null;
  }[];
}

export function syncStatusToWire(list: readonly ConnectorStatus[]): SyncStatusWire {
  return {
    connectors: list.map((s) => ({
      connector: s.connector,
      state: s.state,
      last_started_at: s.lastStartedAt,
      last_finished_at: s.lastFinishedAt,
      last_counts: s.lastCounts && {
        fetched: s.lastCounts.fetched,
        upserted: s.lastCounts.upserted,
        unchanged: s.lastCounts.unchanged,
        deleted: s.lastCounts.deleted,
        skipped: s.lastCounts.skipped,
        errors: s.lastCounts.errors,
        chunks_written: s.lastCounts.chunksWritten,
      },
      last_error: s.lastError,
      next_run_at: s.nextRunAt,
    })),
  };
}
