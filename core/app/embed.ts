// The embed use-case: give every chunk a current vector for the configured embedder.
//
// 1. `rebuild` first drops every embedding. 2. Count the pending chunks (no vector, another
// model/dims, or an older content hash). 3. Walk them in rowid order, a page of batchSize ×
// concurrency at a time, batches in parallel; each batch's vectors are written as soon as they come
// back, so a failure keeps everything written before it and a rerun continues from there. Pages are
// leased through the store (claimPendingEmbeddings, ADR 0126) when it can: chunks another embedder
// (a sync, `kbctx embed pending`, the server) is computing are skipped, never computed twice, and a
// crashed embedder's lease expires. 4. On the first failure stop taking new batches and report it.
// 5. Give the leases back; bring the vector index in step.
// Options: `limit` embeds at most N chunks, `batchSize` overrides the provider's, `dryRun` only counts,
// `documentIds` only those documents' chunks (a sync embeds what it wrote).
import { KbctxError } from '../domain/errors.ts';
import type { Embedder } from '../embed/embedder.ts';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
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
  /** Only chunks of these documents (with a store that leases chunks; others: nothing is embedded). */
  documentIds?: readonly string[] | undefined;
  /** How long a leased page stays ours (default LEASE_MS): then another embedder may take it over. */
  leaseMs?: number | undefined;
}

/**
 * A page's lease: long enough for a slow local model's page on a busy CPU, short enough that a crashed run's chunks
 * come back.
 */
export const LEASE_MS = 10 * 60_000;

/** This run's owner name in the store's leases: unique across processes and replicas. */
const newOwner = (): string => `${hostname()}:${process.pid}:${randomBytes(6).toString('hex')}`;

/**
 * The pages of pending chunks, leased to this run when the store can (null: it cannot, and
 * `documentIds` was asked for, so nothing can be embedded for them).
 */
function pageSource(store: Store, selector: { model: string; dims: number | null }, options: EmbedOptions) {
  const owner = newOwner();
  const claim = { owner, leaseMs: options.leaseMs ?? LEASE_MS, documentIds: options.documentIds };
  let leasing = typeof store.claimPendingEmbeddings === 'function';
  return {
    async next(after: number, limit: number): Promise<PendingChunk[] | null> {
      if (leasing) {
        const page = await store.claimPendingEmbeddings?.(selector, after, limit, claim);
        if (page !== undefined) return page;
        leasing = false; // a forwarding store whose real store lacks the method answers undefined
      }
      return options.documentIds === undefined ? store.pendingEmbeddings(selector, after, limit) : null;
    },
    release: async (): Promise<void> => {
      if (leasing) await store.releaseEmbeddingClaims?.(owner);
    },
  };
}

export async function embedPending(deps: EmbedDeps, options: EmbedOptions = {}): Promise<EmbedReport> {
  const started = performance.now();
  const { store, embedder } = deps;
  const selector = { model: embedder.model, dims: embedder.dims };
  if (options.dryRun) {
    const pending = options.rebuild ? (await store.counts()).chunks : await store.countPendingEmbeddings(selector);
    return {
      model: embedder.model,
      pending,
      embedded: 0,
      dropped: 0,
      failure: null,
      index: null,
      durationMs: performance.now() - started,
    };
  }
  const dropped = options.rebuild ? await store.clearEmbeddings() : 0;
  // Scoped to documents: their count is not asked for (the store counts whole spaces); what was taken is reported.
  const pending =
    options.documentIds === undefined ? await store.countPendingEmbeddings(selector) : Number.MAX_SAFE_INTEGER;
  const wanted = Math.min(pending, options.limit ?? pending);
  const batchSize = options.batchSize ?? embedder.batchSize;
  const report: EmbedReport = {
    model: embedder.model,
    pending: wanted,
    embedded: 0,
    dropped,
    failure: null,
    index: null,
    durationMs: 0,
  };
  deps.onProgress?.({ done: 0, total: report.pending });
  let after = 0;
  let taken = 0;
  let dims = embedder.dims;
  const pages = pageSource(store, selector, options);
  try {
    while (taken < wanted) {
      const page = await pages.next(after, Math.min(batchSize * embedder.concurrency, wanted - taken));
      if (page === null || page.length === 0) break;
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
          const rows = batch.map((c, i) => ({
            rowid: c.rowid,
            contentHash: c.contentHash,
            vector: vectors[i] as Float32Array,
          }));
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
      error instanceof KbctxError
        ? { code: error.code, message: error.message }
        : { code: 'internal', message: (error as Error).message };
  }
  await pages.release().catch(() => undefined); // leases expire by themselves
  if (options.documentIds !== undefined) report.pending = taken;
  if (dims !== null) report.index = await store.refreshVectorIndex({ model: embedder.model, dims });
  report.durationMs = performance.now() - started;
  return report;
}
