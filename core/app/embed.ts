// The embed use-case: give every chunk a current vector for the configured embedder.
//
// 1. `rebuild` first drops every embedding. 2. Count the pending chunks (no vector, another
// model/dims, or an older content hash). 3. Walk them in rowid order, a page of batchSize ×
// concurrency at a time, batches in parallel; each batch's vectors are written as soon as they come
// back, so a failure keeps everything written before it and a rerun continues from there.
// 4. On the first failure stop taking new batches and report it. 5. Bring the vector index in step.
// Options: `limit` embeds at most N chunks, `batchSize` overrides the provider's, `dryRun` only counts.
import { KbctxError } from '../domain/errors.ts';
import type { Embedder } from '../embed/embedder.ts';
import type { PendingChunk, Store, VectorIndexReport } from '../store/store.ts';
import { mapLimit } from './map-limit.ts';

export interface EmbedProgress {
  done: number;
  total: number;
}

export interface EmbedReport {
  model: string;
  pending: number;
  embedded: number;
  /** Embeddings dropped first (rebuild). */
  dropped: number;
  failure: { code: string; message: string } | null;
  index: VectorIndexReport | null;
  durationMs: number;
}

export interface EmbedDeps {
  store: Store;
  embedder: Embedder;
  onProgress?: ((p: EmbedProgress) => void) | undefined;
}

export interface EmbedOptions {
  rebuild?: boolean | undefined;
  /** Embed at most this many chunks (the rest stay pending for a later run). */
  limit?: number | undefined;
  /** Count what is pending and embed nothing. */
  dryRun?: boolean | undefined;
  /** Chunks per provider request, overriding [embedding] batch_size. */
  batchSize?: number | undefined;
}

export async function embedPending(deps: EmbedDeps, options: EmbedOptions = {}): Promise<EmbedReport> {
  const started = performance.now();
  const { store, embedder } = deps;
  const selector = { model: embedder.model, dims: embedder.dims };
  if (options.dryRun) {
    const pending = options.rebuild ? (await store.counts()).chunks : await store.countPendingEmbeddings(selector);
    return { model: embedder.model, pending, embedded: 0, dropped: 0, failure: null, index: null, durationMs: performance.now() - started };
  }
  const dropped = options.rebuild ? await store.clearEmbeddings() : 0;
  const pending = await store.countPendingEmbeddings(selector);
  const wanted = Math.min(pending, options.limit ?? pending);
  const batchSize = options.batchSize ?? embedder.batchSize;
  const report: EmbedReport = { model: embedder.model, pending: wanted, embedded: 0, dropped, failure: null, index: null, durationMs: 0 };
  deps.onProgress?.({ done: 0, total: report.pending });
  let after = 0;
  let taken = 0;
  let dims = embedder.dims;
  try {
    while (taken < wanted) {
      const page = await store.pendingEmbeddings(selector, after, Math.min(batchSize * embedder.concurrency, wanted - taken));
      if (page.length === 0) break;
      taken += page.length;
      after = (page[page.length - 1] as PendingChunk).rowid;
      const batches: PendingChunk[][] = [];
      for (let i = 0; i < page.length; i += batchSize) batches.push(page.slice(i, i + batchSize));
      let failed: unknown;
      await mapLimit(batches, embedder.concurrency, async (batch) => {
        if (failed !== undefined) return;
        try {
          const vectors = await embedder.embed(batch.map((c) => c.text));
          dims ??= vectors[0]?.length ?? null;
          const rows = batch.map((c, i) => ({ rowid: c.rowid, contentHash: c.contentHash, vector: vectors[i] as Float32Array }));
          // Read the total after the write: `+= await` would add to a stale total when batches run concurrently.
          const written = await store.writeEmbeddings({ model: embedder.model, dims: vectors[0]?.length ?? 0 }, rows);
          report.embedded += written;
          deps.onProgress?.({ done: report.embedded, total: report.pending });
        } catch (error) {
          failed ??= error;
        }
      });
      if (failed !== undefined) throw failed;
    }
  } catch (error) {
    report.failure =
      error instanceof KbctxError ? { code: error.code, message: error.message } : { code: 'internal', message: (error as Error).message };
  }
  if (dims !== null) report.index = await store.refreshVectorIndex({ model: embedder.model, dims });
  report.durationMs = performance.now() - started;
  return report;
}
