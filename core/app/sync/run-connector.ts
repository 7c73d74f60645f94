// One connector's sync run, under its writer lock: scan, split the listing (listing-diff.ts), sync the changed
// entries with bounded concurrency (sync-entry.ts), delete what is gone, record the checkpoint, embed. Never rejects:
// a failure is in the report.
import { UNOBSERVED } from '../index-service.ts';
import type { Connector } from '../../connectors/connector.ts';
import { createEventLoopTurns } from '../event-loop-turns.ts';
import { mapLimit } from '../map-limit.ts';
import { deletionsOf, recordUnreadable, splitUnchanged } from './listing-diff.ts';
import { emptyReport, toFailure, type SyncReport } from './report.ts';
import type { SyncDeps, SyncOptions } from './sync-deps.ts';
import { syncEntry } from './sync-entry.ts';

const LOAD_CONCURRENCY = 16;

export async function runConnector(deps: SyncDeps, connector: Connector, options: SyncOptions): Promise<SyncReport> {
  const { full, paths } = options;
  // A partial pass (--limit, --since) sees only part of the source: it never deletes and keeps the old checkpoint.
  const partial = options.limit !== undefined || options.since !== undefined;
  const dryRun = options.dryRun === true;
  const started = performance.now();
  const report = emptyReport(connector.label);
  let release: (() => void) | undefined;
  try {
    release = await deps.lock?.(connector.label);
    const { store } = deps;
    const stored = await store.documentStates(connector.label);
    const previous = await store.sourceState(connector.label);
    const recent = syncedRecently(previous.lastSyncAt, options.skipIfSyncedWithinMs);
    if (recent !== null) {
      report.upToDate = recent;
      return report;
    }
    const observe = deps.observe ?? UNOBSERVED;
    const scan = await observe.stage('sync.scan', { 'kbctx.source': connector.label }, () =>
      connector.scan({ checkpoint: full ? null : previous.checkpoint, full, paths: full ? undefined : paths }),
    );
    report.fetched = scan.entries.length;
    const { changed, keep, unchanged } = splitUnchanged(scan.entries, stored, connector.label, full);
    report.unchanged = unchanged;
    const chosen = options.limit === undefined ? changed : changed.slice(0, options.limit);
    const total = report.unchanged + chosen.length;
    let done = report.unchanged;
    deps.onProgress?.({ connector: connector.label, done, total });

    const pass = { full, dryRun, since: options.since };
    const turn = createEventLoopTurns();
    await mapLimit(chosen, LOAD_CONCURRENCY, async (entry) => {
      await observe.stage('sync.document', { 'kbctx.source_id': entry.sourceId }, () =>
        syncEntry(deps, connector.label, entry, stored, pass, keep, report),
      );
      done++;
      deps.onProgress?.({ connector: connector.label, done, total });
      await turn();
    });

    const unknown = recordUnreadable(scan.unreadable ?? [], report);
    const deletions = deletionsOf(scan, stored, keep, unknown, connector.label, partial);
    if (dryRun) {
      report.deleted = deletions.length;
    } else {
      report.deleted = await observe.stage('sync.delete', { 'kbctx.sync.documents': deletions.length }, () =>
        store.deleteDocuments(deletions),
      );
      await store.setSourceState(connector.label, {
        checkpoint: partial ? previous.checkpoint : scan.checkpoint,
        lastSyncAt: new Date().toISOString(),
      });
      const after = deps.afterConnector;
      if (after) await observe.stage('sync.embed', { 'kbctx.source': connector.label }, () => after(report));
    }
  } catch (error) {
    report.failure = toFailure(error);
  } finally {
    release?.();
  }
  report.durationMs = performance.now() - started;
  return report;
}

/** The note for a connector synced within `withinMs` (by this or another process), or null. */
function syncedRecently(lastSyncAt: string | null, withinMs: number | undefined): string | null {
  if (withinMs === undefined || lastSyncAt === null) return null;
  const age = Date.now() - Date.parse(lastSyncAt);
  return age >= 0 && age < withinMs
    ? `synced ${Math.round(age / 1000)} s ago (${lastSyncAt}), possibly by another replica`
    : null;
}
