// Sources and index statistics: configured connector instances joined with what the index holds.
// A configured connector never synced shows `not synced`; a source in the index but no longer
// configured still shows (its documents are searchable until removed). The status is the last run's
// outcome when the store records runs: `failed` (the run stopped as a whole) or `errors` (items unread).
import type { SourceStats } from '../domain/models.ts';
import type { EmbeddingSpaceCount, Store, StoreCounts, SyncRun } from '../store/store.ts';

export type SourceStatus = 'ok' | 'not synced' | 'failed' | 'errors';

export interface SourceRow extends SourceStats {
  configured: boolean;
  status: SourceStatus;
  /** How the last sync run ended; null when none is recorded. */
  lastRun: SyncRun | null;
}

export async function listSources(store: Store, configuredLabels: readonly string[]): Promise<SourceRow[]> {
  const stored = new Map((await store.sources()).map((s) => [s.source, s]));
  const runs = new Map(((await store.syncRuns?.()) ?? []).map(({ connector, ...run }) => [connector, run]));
  const labels = [...new Set([...configuredLabels, ...stored.keys()])].sort();
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

/** The status in words: `ok`, `not synced`, `failed: <why>`, `2 errors`. */
export function describeStatus(row: Pick<SourceRow, 'status' | 'lastRun'>): string {
  if (row.status === 'failed') return `failed: ${row.lastRun?.failure ?? 'unknown'}`;
  if (row.status === 'errors') return `${row.lastRun?.errors} error${row.lastRun?.errors === 1 ? '' : 's'}`;
  return row.status;
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
  const counts = await store.counts();
  return {
    embeddings: (await store.embeddingSpaces()).map((s) => ({
      ...s,
      current: s.model === embedder?.model && (embedder.dims === null || embedder.dims === s.dims),
    })),
    dbPath: store.path,
    dbSizeBytes: await store.sizeBytes(),
    counts,
    embeddedPercent: counts.chunks === 0 ? 0 : Math.round((counts.embedded / counts.chunks) * 1000) / 10,
    sources: await listSources(store, configuredLabels),
  };
}
