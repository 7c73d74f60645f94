// Each connector's last sync run (kbctx_sync_runs): written and read on PostgreSQL itself, outside the
// change feed (a status line, not index data: replicas read it from PostgreSQL, never mirror it).
import type { ConnectorSyncRun, SyncRun } from '../../core/api/plugin.ts';
import type pg from 'pg';

type Queryable = Pick<pg.Pool, 'query'>;

export async function recordSyncRun(db: Queryable, connector: string, run: SyncRun): Promise<void> {
  await db.query(
    `INSERT INTO kbctx_sync_runs (connector, ended_at, errors, failure) VALUES ($1, $2, $3, $4)
     ON CONFLICT (connector) DO UPDATE SET ended_at = excluded.ended_at, errors = excluded.errors,
       failure = excluded.failure`,
    [connector, run.endedAt, run.errors, run.failure],
  );
}

export async function syncRuns(db: Queryable): Promise<ConnectorSyncRun[]> {
  const rows = (
    await db.query<{ connector: string; ended_at: string; errors: number; failure: string | null }>(
      'SELECT connector, ended_at, errors, failure FROM kbctx_sync_runs ORDER BY connector COLLATE "C"',
    )
  ).rows;
  return rows.map((r) => ({
    connector: r.connector,
    endedAt: r.ended_at,
    errors: Number(r.errors),
    failure: r.failure,
  }));
}
