// One changed scan entry through to the store: load it, pass it through the `document` taps, compare content
// hashes, chunk it (the `chunk` taps) and write the document and its chunks in one transaction. Every outcome is
// counted in the connector's report; a plugin's failing tap fails this entry only.
import type { Pipeline } from '../plugin-pipeline.ts';
import { UNOBSERVED } from '../index-service.ts';
import { PluginError } from '../../plugin-error.ts';
import { documentId } from '../../domain/ids.ts';
import type { SourceItem } from '../../domain/models.ts';
import type { ScanEntry } from '../../connectors/connector.ts';
import type { DocumentState } from '../../store/store.ts';
import { pluginChunks } from './chunks-of.ts';
import type { SyncReport } from './report.ts';
import type { SyncDeps } from './sync-deps.ts';
import { toDocument } from './to-document.ts';

/** How this pass treats an entry: `full` ignores content hashes, `since` skips older items, `dryRun` writes nothing. */
export interface EntryPass {
  full: boolean;
  dryRun: boolean;
  since: string | undefined;
}

/**
 * Syncs one entry whose fingerprint changed (or that has none). Adds its id to `keep` unless it is skipped or left
 * out by a plugin (then a complete listing deletes its stored copy); a read or tap failure keeps the stored copy.
 * Rejects only with a store's error or a tap's non-PluginError.
 */
export async function syncEntry(
  deps: SyncDeps,
  connector: string,
  entry: ScanEntry,
  stored: ReadonlyMap<string, Pick<DocumentState, 'fingerprint' | 'contentHash'>>,
  pass: EntryPass,
  keep: Set<string>,
  report: SyncReport,
): Promise<void> {
  const { full } = pass;
  const source = entry.source ?? connector;
  const id = documentId(source, entry.sourceId);
  const prior = stored.get(id); // entries with an unchanged fingerprint were settled before (listing-diff.ts)
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
  const doc = toDocument(item, id, source, connector);
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
