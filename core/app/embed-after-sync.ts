// Inline embedding during sync: after each connector's documents are written, embed the chunks of the
// documents it wrote, and only those: the rest of the backlog (older syncs, other connectors) is left
// to `kbctx embed pending` or the server, with a note saying how much. Failures are noted on the
// connector's report, never fatal (the chunks are indexed). Chunks are leased through the store, so
// an embedder running beside this one (another sync, `embed pending`, the server) never computes the
// same chunk (ADR 0126); calls are still chained so parallel connectors embed one at a time.
import type { Embedder } from '../embed/embedder.ts';
import type { Store } from '../store/store.ts';
import { embedPending } from './embed.ts';
import type { SyncReport } from './sync.ts';

export function embedAfterSync(store: Store, embedder: () => Embedder | null): (report: SyncReport) => Promise<void> {
  let chain: Promise<void> = Promise.resolve();
  return (report) => {
    const run = chain.then(async () => {
      let e: Embedder | null;
      try {
        e = embedder();
      } catch (error) {
        report.notes.push(`embedding skipped: ${(error as Error).message}`);
        return;
      }
      if (!e) return;
      const written = report.writtenIds ?? [];
      if (written.length > 0) {
        const result = await embedPending({ store, embedder: e }, { documentIds: written });
        if (result.embedded > 0) report.notes.push(`embedded ${result.embedded} chunk(s) with ${result.model}`);
        if (result.failure) {
          report.notes.push(
            `embedding failed after ${result.embedded} of ${result.pending} chunk(s): ${result.failure.message}; ` +
              `run \`kbctx embed pending\` to finish`,
          );
          return;
        }
      }
      const left = await store.countPendingEmbeddings(e);
      if (left > 0)
        report.notes.push(
          `${left} chunk(s) in the index still wait for embeddings (left ` +
            `to \`kbctx embed pending\` or a running \`kbctx serve\`)`,
        );
    });
    chain = run;
    return run;
  };
}
