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
import type { Pipeline } from './plugin-pipeline.ts';
import type { ChunkPiece } from '../hook-types.ts';
import { UNOBSERVED, type StageObserver } from './index-service.ts';
import { KbctxError } from '../domain/errors.ts';
import { PluginError } from '../plugin-error.ts';
import { chunkIds, documentId, sha256Hex } from '../domain/ids.ts';
import { locateChunks } from '../domain/line-ranges.ts';
import type { Chunk, SourceItem } from '../domain/models.ts';
import type { ChunkingConfig } from '../config/types.ts';
import type { Connector, ScanEntry, UnreadablePath } from '../connectors/connector.ts';
import type { Store, StoredDocument } from '../store/store.ts';
import { createEventLoopTurns } from './event-loop-turns.ts';
import { mapLimit } from './map-limit.ts';

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

export interface SyncProgress {
  connector: string;
  done: number;
  total: number;
}

export interface SyncDeps {
  store: Store;
  chunking: ChunkingConfig;
  /**
   * Plugins' `document` and `chunk` taps; without a `chunk` (chunker-default dropped and no other chunker) a document
   * fails with a config error.
   */
  pipeline?: Pick<Pipeline, 'document' | 'chunk'> | undefined;
  onProgress?: ((p: SyncProgress) => void) | undefined;
  /** Called after a connector's documents are written (the embeddings layer embeds new chunks here). */
  afterConnector?: ((report: SyncReport) => Promise<void>) | undefined;
  /**
   * Told of each document a plugin's tap failed (also counted and noted): the CLI prints the stack under KBCTX_DEBUG.
   */
  onItemError?: ((sourceId: string, error: PluginError) => void) | undefined;
  /**
   * Takes the connector's cross-process writer lock (throws `conflict` when another process holds it); returns its
   * release.
   */
  lock?: ((label: string) => Promise<() => void>) | undefined;
  /**
   * Watches the stages (`sync`, per connector `sync.connector` with its `sync.scan`, `sync.document` (the `document`
   * and `chunk` taps, `sync.store_write`), `sync.delete` and `sync.embed`: index-service.ts StageObserver); none:
   * unobserved.
   */
  observe?: StageObserver | undefined;
}

export interface SyncOptions {
  full: boolean;
  /** Only these source ids changed (a watcher's hint); connectors that cannot narrow their scan ignore it. */
  paths?: readonly string[] | undefined;
  /** Count what would change without writing anything (no documents, deletions, checkpoints or embeddings). */
  dryRun?: boolean | undefined;
  /** At most this many new or changed items per connector. */
  limit?: number | undefined;
  /** ISO instant: only items updated at or after it. */
  since?: string | undefined;
  /**
   * A scheduled run: skip a connector that any process (another replica) synced within this many ms,
   * read after taking its lock, so replicas sharing one store never repeat each other's schedule.
   */
  skipIfSyncedWithinMs?: number | undefined;
}

const LOAD_CONCURRENCY = 16;

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
  // syncOne never throws: a connector's failure is in its report.
  const observe = deps.observe ?? UNOBSERVED;
  const reports = await Promise.all(
    connectors.map((c) =>
      observe.stage('sync.connector', { 'kbctx.source': c.label }, () => syncOne(deps, c, options)),
    ),
  );
  // The last group of writes is committed here: when that fails, the connectors' writes since the
  // previous commit are gone, and their reports must say so (the next sync writes them again).
  const unwritten = await deps.store.endBulk().then(
    () => null,
    (error: unknown) => error,
  );
  if (unwritten !== null) failUnfailed(reports, unwritten, options);
  // A watcher's few-path syncs leave merging to FTS5's automerge: an optimize costs ~90 ms per 5k chunks.
  if (!options.dryRun && !options.paths && reports.some((r) => r.chunksWritten > 0 || r.deleted > 0)) {
    const uncompacted = await deps.store.compact().then(
      () => null,
      (error: unknown) => error,
    );
    if (uncompacted !== null) failUnfailed(reports, uncompacted, options);
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

/** Marks the reports not yet failed as failed with `error` (a dry run writes nothing, so nothing of it failed). */
function failUnfailed(reports: SyncReport[], error: unknown, options: SyncOptions): void {
  if (options.dryRun) return;
  for (const r of reports) r.failure ??= toFailure(error);
}

function emptyReport(connector: string): SyncReport {
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

async function syncOne(deps: SyncDeps, connector: Connector, options: SyncOptions): Promise<SyncReport> {
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
    const keep = new Set<string>();
    // Fast path, no hashing and no promise per item: entries whose fingerprint is unchanged.
    const byKey = new Map([...stored.values()].map((s) => [`${s.source}\u0000${s.sourceId}`, s]));
    const changed: ScanEntry[] = [];
    for (const entry of scan.entries) {
      const prior = byKey.get(`${entry.source ?? connector.label}\u0000${entry.sourceId}`);
      if (!full && prior && entry.fingerprint !== null && prior.fingerprint === entry.fingerprint) {
        keep.add(prior.id);
        report.unchanged++;
      } else changed.push(entry);
    }
    const chosen = options.limit === undefined ? changed : changed.slice(0, options.limit);
    const total = report.unchanged + chosen.length;
    let done = report.unchanged;
    deps.onProgress?.({ connector: connector.label, done, total });

    const pass = { full, dryRun, since: options.since };
    const turn = createEventLoopTurns();
    await mapLimit(chosen, LOAD_CONCURRENCY, async (entry) => {
      await observe.stage('sync.document', { 'kbctx.source_id': entry.sourceId }, () =>
        processEntry(deps, connector, entry, stored, pass, keep, report),
      );
      done++;
      deps.onProgress?.({ connector: connector.label, done, total });
      await turn();
    });

    const unknown = recordUnreadable(scan.unreadable ?? [], report);
    const gone = new Set<string>();
    if (scan.complete && !partial)
      for (const [id, s] of stored) if (!keep.has(id) && !unknown(s.sourceId)) gone.add(id);
    for (const sourceId of scan.deleted) gone.add(documentId(connector.label, sourceId));
    const deletions = [...gone].filter((id) => stored.has(id) && !keep.has(id));
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

/**
 * Counts what the scan could not read as errors, one note each, and returns the test for stored
 * source ids that are unknown (at or under an unreadable path): those are not deleted.
 */
function recordUnreadable(unreadable: readonly UnreadablePath[], report: SyncReport): (sourceId: string) => boolean {
  for (const u of unreadable) {
    report.errors++;
    report.notes.push(
      `error ${u.sourceId}: cannot read (${u.reason}); skipped${u.sourceId.endsWith('/') ? ', its indexed documents are kept' : ''}`,
    );
  }
  const ids = new Set(unreadable.map((u) => u.sourceId));
  const folders = unreadable.map((u) => u.sourceId).filter((id) => id.endsWith('/'));
  return (sourceId) => ids.has(sourceId) || folders.some((f) => sourceId.startsWith(f));
}

function toFailure(error: unknown): { code: string; message: string } {
  return error instanceof KbctxError
    ? { code: error.code, message: error.message }
    : { code: 'internal', message: (error as Error | null)?.message ?? String(error) };
}

/** The note for a connector synced within `withinMs` (by this or another process), or null. */
function syncedRecently(lastSyncAt: string | null, withinMs: number | undefined): string | null {
  if (withinMs === undefined || lastSyncAt === null) return null;
  const age = Date.now() - Date.parse(lastSyncAt);
  return age >= 0 && age < withinMs
    ? `synced ${Math.round(age / 1000)} s ago (${lastSyncAt}), possibly by another replica`
    : null;
}

async function processEntry(
  deps: SyncDeps,
  connector: Connector,
  entry: ScanEntry,
  stored: ReadonlyMap<string, { fingerprint: string | null; contentHash: string }>,
  pass: { full: boolean; dryRun: boolean; since: string | undefined },
  keep: Set<string>,
  report: SyncReport,
): Promise<void> {
  const { full } = pass;
  const source = entry.source ?? connector.label;
  const id = documentId(source, entry.sourceId);
  const prior = stored.get(id); // entries with an unchanged fingerprint were settled before (syncOne)
  let loaded;
  try {
    loaded = await entry.load();
  } catch (error) {
    keep.add(id); // a read failure is not a deletion: keep what we have
    report.errors++;
    report.notes.push(`error ${entry.sourceId}: ${(error as Error).message}`);
    return;
  }
  if (loaded.kind === 'skipped') {
    report.skipped++;
    report.notes.push(`skipped ${entry.sourceId}: ${loaded.detail}`);
    return;
  }
  // A plugin's failing tap fails this document only: counted, noted, its stored copy kept.
  const failed = (error: unknown): undefined => {
    if (!(error instanceof PluginError)) throw error;
    keep.add(id);
    report.errors++;
    report.notes.push(`error ${entry.sourceId}: ${error.withoutItem}`);
    deps.onItemError?.(entry.sourceId, error);
    return undefined;
  };
  const item = deps.pipeline?.document
    ? await transformed(deps.pipeline.document, loaded.item, source).catch(failed)
    : loaded.item;
  if (item === undefined) return;
  if (item === null) {
    report.skipped++;
    report.notes.push(`skipped ${entry.sourceId}: left out by a document plugin`);
    return; // not kept: a document a plugin skips is removed from the index like an unlisted one
  }
  keep.add(id);
  const doc = toDocument(item, id, source, connector.label);
  if (pass.since !== undefined && Date.parse(doc.updatedAt) < Date.parse(pass.since)) {
    report.skipped++;
    report.notes.push(`skipped ${entry.sourceId}: updated ${doc.updatedAt}, before --since`);
    return;
  }
  if (!full && prior && prior.contentHash === doc.contentHash) {
    if (prior.fingerprint !== entry.fingerprint && !pass.dryRun) await deps.store.touchDocument(id, entry.fingerprint);
    report.unchanged++;
    return;
  }
  const chunks = await pluginChunks(deps.pipeline?.chunk, doc, deps.chunking).catch(failed);
  if (chunks === undefined) return;
  if (pass.dryRun) {
    report.upserted++;
    report.chunksWritten += chunks.length; // what a write would hold; chunks kept by id are not diffed
    return;
  }
  const outcome = await (deps.observe ?? UNOBSERVED).stage('sync.store_write', { 'kbctx.chunks': chunks.length }, () =>
    deps.store.upsertDocument(doc, chunks, entry.fingerprint),
  );
  (report.writtenIds ??= []).push(id);
  report.upserted++;
  report.chunksWritten += outcome.chunksWritten;
}

export function toDocument(item: SourceItem, id: string, source: string, connector: string): StoredDocument {
  const title = item.title?.trim() || item.sourceId;
  const contentType = item.contentType ?? 'text/plain';
  const metadata = item.metadata ?? {};
  const sourceUrl = item.sourceUrl ?? null;
  const contentHash = sha256Hex(JSON.stringify([title, item.body, sourceUrl, contentType, metadata]));
  return {
    id,
    source,
    connector,
    sourceId: item.sourceId,
    sourceUrl,
    title,
    body: item.body,
    contentType,
    metadata,
    updatedAt: item.updatedAt ?? new Date().toISOString(),
    contentHash,
  };
}

/** The item after the plugins' `document` taps; null when one of them set `skip`. */
async function transformed(
  document: NonNullable<Pipeline['document']>,
  item: SourceItem,
  source: string,
): Promise<SourceItem | null> {
  const draft = await document({
    source,
    sourceId: item.sourceId,
    title: item.title?.trim() || item.sourceId,
    body: item.body,
    sourceUrl: item.sourceUrl ?? null,
    contentType: item.contentType ?? 'text/plain',
    updatedAt: item.updatedAt ?? new Date().toISOString(),
    metadata: item.metadata ?? {},
  });
  if (draft.skip === true) return null; // the taps' results are checked as they return (tap-contracts.ts)
  return {
    sourceId: item.sourceId,
    title: draft.title,
    body: draft.body,
    sourceUrl: draft.sourceUrl ?? undefined,
    contentType: draft.contentType,
    updatedAt: draft.updatedAt,
    metadata: draft.metadata,
  };
}

/**
 * Chunks from the first `chunk` tap that answers (the bundled chunker-default taps last; each tap's list is checked as
 * it returns); none is a config error.
 */
async function pluginChunks(chunk: Pipeline['chunk'], doc: StoredDocument, sizes: ChunkingConfig): Promise<Chunk[]> {
  const answer = chunk === undefined ? undefined : await chunk({ ...doc }, sizes);
  if (answer === undefined)
    throw new KbctxError(
      'config_error',
      `no loaded plugin chunks ${doc.sourceId}: the default chunker is the bundled plugin chunker-default, which is not loaded (check plugins in the config)`,
    );
  return chunksOf(doc, answer);
}

/**
 * A document's chunks from what a chunker returned: ids and content hashes from the texts, lines from a ChunkPiece
 * (camelCase, or snake_case as a Lua table has it) or, for a plain string, located in the body (domain/line-ranges.ts).
 */
export function chunksOf(doc: StoredDocument, items: readonly (string | ChunkPiece)[]): Chunk[] {
  const texts = items.map((item) => (typeof item === 'string' ? item : item.text));
  const ids = chunkIds(doc.id, texts);
  const located = items.some((item) => typeof item === 'string') ? locateChunks(doc.body, texts) : [];
  return items.map((item, i) => {
    const text = texts[i] ?? '';
    const piece = typeof item === 'string' ? undefined : (item as ChunkPiece & Record<string, unknown>);
    const lines = piece
      ? { lineStart: piece.lineStart ?? piece['line_start'], lineEnd: piece.lineEnd ?? piece['line_end'] }
      : located[i];
    return {
      id: ids[i] ?? '',
      documentId: doc.id,
      chunkIndex: i,
      text,
      contentHash: sha256Hex(text),
      lineStart: (lines?.lineStart as number | null | undefined) ?? null,
      lineEnd: (lines?.lineEnd as number | null | undefined) ?? null,
      symbol: piece?.symbol ?? null,
      lang: piece?.lang ?? null,
    };
  });
}
