// The SQLite store's per-connector sync bookkeeping: the checkpoint and last sync (`sync_state`) and how the last run
// ended (`sync_runs`). Writes go through the unit of work, so they join a sync's group transaction.
import type { ConnectorState, ConnectorSyncRun, SourceState, SyncRun } from '../../core/api/plugin.ts';
import type { Sql } from './document-reads.ts';
import type { UnitOfWork } from './transaction.ts';

export function readSourceState(sql: Sql, connector: string): SourceState {
  const row = sql('SELECT checkpoint, last_sync_at FROM sync_state WHERE connector = ?').get(connector) as
    | { checkpoint: string | null; last_sync_at: string | null }
    | undefined;
  return { checkpoint: row?.checkpoint ?? null, lastSyncAt: row?.last_sync_at ?? null };
}

export function writeSourceState(sql: Sql, unit: UnitOfWork, connector: string, state: SourceState): void {
  unit.run(() =>
    sql(
      `INSERT INTO sync_state (connector, checkpoint, last_sync_at) VALUES (?, ?, ?)
       ON CONFLICT(connector) DO UPDATE SET checkpoint = excluded.checkpoint, last_sync_at = excluded.last_sync_at`,
    ).run(connector, state.checkpoint, state.lastSyncAt),
  );
}

export function readSourceStates(sql: Sql): ConnectorState[] {
  const rows = sql('SELECT connector, checkpoint, last_sync_at FROM sync_state ORDER BY connector').all() as {
    connector: string;
    checkpoint: string | null;
    last_sync_at: string | null;
  }[];
  return rows.map((r) => ({ connector: r.connector, checkpoint: r.checkpoint, lastSyncAt: r.last_sync_at }));
}

export function writeSyncRun(sql: Sql, unit: UnitOfWork, connector: string, run: SyncRun): void {
  unit.run(() =>
    sql(
      `INSERT INTO sync_runs (connector, ended_at, errors, failure) VALUES (?, ?, ?, ?)
       ON CONFLICT(connector) DO UPDATE SET
         ended_at = excluded.ended_at, errors = excluded.errors, failure = excluded.failure`,
    ).run(connector, run.endedAt, run.errors, run.failure),
  );
}

export function readSyncRuns(sql: Sql): ConnectorSyncRun[] {
  const rows = sql('SELECT connector, ended_at, errors, failure FROM sync_runs ORDER BY connector').all() as {
    connector: string;
    ended_at: string;
    errors: number;
    failure: string | null;
  }[];
  return rows.map((r) => ({
    connector: r.connector,
    endedAt: r.ended_at,
    errors: Number(r.errors),
    failure: r.failure,
  }));
}
