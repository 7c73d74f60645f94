// The sync use-case: connector → documents → chunks → store, incrementally.
//
// For each connector instance (instances run concurrently; writes are serialised by SQLite):
// 1. Scan the source. An entry whose fingerprint equals the stored one is unchanged: not even read
//    (checked synchronously, by source and source id, before any per-item work).
// 2. Load the others (bounded concurrency). Skipped items (binary, too large, …) are counted and,
//    if they were indexed before, removed. A load failure is counted as an error; the stored copy stays.
// 3. Pass it through the plugins' `document` taps. Hash the normalised content. Same hash: only the
//    fingerprint is refreshed. Otherwise chunk (the `chunk` taps) and write the document in one
//    transaction (a kill leaves each document old or new, never half). A failing `document` or `chunk`
//    tap fails that document alone (an error naming it; its stored copy stays), not the connector.
// 4. Delete stored documents the source no longer has (complete listings) or reports as deleted. What
//    the scan could not read (an unreadable folder) is unknown, not gone: counted as an error, kept.
// 5. Record the checkpoint and the sync time. `full` ignores fingerprints, hashes and checkpoints.
// Options: `dryRun` counts without writing; `limit` takes the first N changed entries and `since`
// skips items updated before it: such a partial pass deletes nothing and keeps the old checkpoint.
// The steps live in sync/: run-connector.ts (one connector's run), listing-diff.ts (steps 1 and 4), sync-entry.ts
// (steps 2 and 3), chunks-of.ts, to-document.ts, report.ts; this file runs the connectors and closes the bulk write.
import { UNOBSERVED } from './index-service.ts';
import type { Connector } from '../connectors/connector.ts';
import type { Store } from '../store/store.ts';
import { failedReport, failUnfailed, type SyncReport } from './sync/report.ts';
import { runConnector } from './sync/run-connector.ts';
import type { SyncDeps, SyncOptions } from './sync/sync-deps.ts';

export { failedReport, type SyncReport } from './sync/report.ts';
export type { SyncDeps, SyncOptions, SyncProgress } from './sync/sync-deps.ts';
export { chunksOf } from './sync/chunks-of.ts';
export { toDocument } from './sync/to-document.ts';

/**
 * Syncs the connectors; never rejects: every failure (a connector's, or the store's at the start, the
 * final commit or the compaction, e.g. PostgreSQL going away) is in the reports, so a long-running
 * caller (the live index) cannot die of one.
 */
export async function syncConnectors(
  deps: SyncDeps,
  connectors: readonly Connector[],
  options: SyncOptions,
): Promise<SyncReport[]> {
  if (!deps.observe) return syncUnobserved(deps, connectors, options);
  const attributes = { 'kbctx.sync.connectors': connectors.length, 'kbctx.sync.full': options.full };
  return deps.observe.stage('sync', attributes, () => syncUnobserved(deps, connectors, options));
}

async function syncUnobserved(
  deps: SyncDeps,
  connectors: readonly Connector[],
  options: SyncOptions,
): Promise<SyncReport[]> {
  const started = performance.now();
  const unopened = await deps.store.beginBulk().then(
    () => null,
    (error: unknown) => error,
  );
  if (unopened !== null) return connectors.map((c) => failedReport(c.label, unopened, performance.now() - started));
  // runConnector never throws: a connector's failure is in its report.
  const observe = deps.observe ?? UNOBSERVED;
  const reports = await Promise.all(
    connectors.map((c) =>
      observe.stage('sync.connector', { 'kbctx.source': c.label }, () => runConnector(deps, c, options)),
    ),
  );
  // The last group of writes is committed here: when that fails, the connectors' writes since the
  // previous commit are gone, and their reports must say so (the next sync writes them again).
  const unwritten = await deps.store.endBulk().then(
    () => null,
    (error: unknown) => error,
  );
  // A dry run writes nothing, so nothing of it failed.
  if (unwritten !== null && !options.dryRun) failUnfailed(reports, unwritten);
  // A watcher's few-path syncs leave merging to FTS5's automerge: an optimize costs ~90 ms per 5k chunks.
  if (!options.dryRun && !options.paths && reports.some((r) => r.chunksWritten > 0 || r.deleted > 0)) {
    const uncompacted = await deps.store.compact().then(
      () => null,
      (error: unknown) => error,
    );
    if (uncompacted !== null) failUnfailed(reports, uncompacted);
  }
  if (!options.dryRun) await recordRuns(deps.store, reports);
  return reports;
}

/**
 * Records how each connector's run ended (`kbctx sources`, doctor). Not recorded: a skipped scheduled
 * pass (nothing ran) and a run refused because another process holds the connector (that one records
 * its own). A store that cannot record (it went away) leaves the previous record.
 */
async function recordRuns(store: Store, reports: readonly SyncReport[]): Promise<void> {
  if (!store.recordSyncRun) return;
  const endedAt = new Date().toISOString();
  for (const r of reports) {
    if (r.upToDate !== undefined || r.failure?.code === 'conflict') continue;
    await store
      .recordSyncRun(r.connector, { endedAt, errors: r.errors, failure: r.failure?.message ?? null })
      .catch(() => undefined);
  }
}
