// The one log line each background sync prints.
import type { SyncReport } from '../../core/api/plugin.ts';
import type { RunReason } from './connector-runner.ts';

export function describeRun(r: SyncReport, reason: RunReason, next: string | null): string {
  const took = `${Math.round(r.durationMs)} ms`;
  const then = next ? `; next ${next}` : '';
  if (r.failure?.code === 'conflict')
    return `sync ${r.connector} (${reason}): busy: ${r.failure.message}; retrying shortly`;
  if (r.upToDate) return `sync ${r.connector} (${reason}): up to date, skipped: ${r.upToDate}${then}`;
  if (r.failure)
    return (
      `sync ${r.connector} (${reason}): failed after ${took}: ` +
      `${r.failure.code}: ${r.failure.message}; documents kept${then}`
    );
  return (
    `sync ${r.connector} (${reason}): fetched ${r.fetched}, upserted ${r.upserted}, deleted ${r.deleted}, ` +
    `unchanged ${r.unchanged}, ` +
    `skipped ${r.skipped}, errors ${r.errors} in ${took}${then}`
  );
}
