// Sources and index statistics: configured connector instances joined with what the index holds.
// A configured connector never synced shows `not synced`; a source in the index but no longer
// configured still shows (its documents are searchable until removed). The status is the last run's
// outcome when the store records runs: `failed` (the run stopped as a whole) or `errors` (items unread).
import type { EmbeddingSpaceCount, SourceStats, Store, StoreCounts, SyncRun } from '../../core/api/plugin.ts';
import { requestOrigin, sourceInScope } from '../../core/api/use-cases.ts';

export type SourceStatus = 'ok' | 'not synced' | 'failed' | 'errors';

export interface SourceRow extends SourceStats {
  configured: boolean;
  status: SourceStatus;
  /** How the last sync run ended; null when none is recorded. */
  lastRun: SyncRun | null;
}

/** The sources the caller's scope lets through (ADR 0225: counts are the source's, not narrowed by paths or meta). */
export async function listSources(store: Store, configuredLabels: readonly string[]): Promise<SourceRow[]> {
  const stored = new Map((await store.sources()).map((s) => [s.source, s]));
  const runs = new Map(((await store.syncRuns?.()) ?? []).map(({ connector, ...run }) => [connector, run]));
  const scope = requestOrigin().scope;
  const labels = [...new Set([...configuredLabels, ...stored.keys()])]
    .filter((label) => scope === undefined || sourceInScope(label, scope))
    .sort();
  return labels.map((label) => {
    const s = stored.get(label);
    const lastRun = runs.get(label) ?? null;
    return {
      source: label,
      documentCount: s?.documentCount ?? 0,
      chunkCount: s?.chunkCount ?? 0,
      embeddedCount: s?.embeddedCount ?? 0,
      lastSyncAt: s?.lastSyncAt ?? null,
      configured: configuredLabels.includes(label),
      status: lastRun?.failure
        ? 'failed'
        : lastRun && lastRun.errors > 0
          ? 'errors'
          : s?.lastSyncAt
            ? 'ok'
            : 'not synced',
      lastRun,
    };
  });
}

export interface Stats {
  dbPath: string;
  dbSizeBytes: number;
  counts: StoreCounts;
  embeddedPercent: number;
  sources: SourceRow[];
  /** Stored vectors per (model, dims); `current` marks those of the configured embedder. */
  embeddings: (EmbeddingSpaceCount & { current: boolean })[];
}

/** `embedder`: the configured embedder's identity (`<provider>:<model>`) and dims (null: any), null when disabled. */
export async function indexStats(
  store: Store,
  configuredLabels: readonly string[],
  embedder: { model: string; dims: number | null } | null = null,
): Promise<Stats> {
  const sources = await listSources(store, configuredLabels);
  // Under a scope the totals are its sources' (ADR 0225): no count of documents the caller cannot see by source.
  const counts = requestOrigin().scope === undefined ? await store.counts() : sumOf(sources);
  return {
    embeddings: (await store.embeddingSpaces()).map((s) => ({
      ...s,
      current: s.model === embedder?.model && (embedder.dims === null || embedder.dims === s.dims),
    })),
    dbPath: store.path,
    dbSizeBytes: await store.sizeBytes(),
    counts,
    embeddedPercent: counts.chunks === 0 ? 0 : Math.round((counts.embedded / counts.chunks) * 1000) / 10,
    sources,
  };
}

const sumOf = (rows: readonly SourceRow[]): StoreCounts => ({
  documents: rows.reduce((n, r) => n + r.documentCount, 0),
  chunks: rows.reduce((n, r) => n + r.chunkCount, 0),
  embedded: rows.reduce((n, r) => n + r.embeddedCount, 0),
});
