// Inline embedding during sync: after each connector's documents are written, embed what is pending.
// Failures are noted on the connector's report, never fatal (the chunks are indexed; `kbctx embed
// pending` finishes later). Calls are chained so parallel connectors never embed the same chunks twice.
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
      const result = await embedPending({ store, embedder: e });
      if (result.embedded > 0) report.notes.push(`embedded ${result.embedded} chunk(s) with ${result.model}`);
      if (result.failure) {
        report.notes.push(`embedding failed after ${result.embedded} of ${result.pending} chunk(s): ${result.failure.message}; run \`kbctx embed pending\` to finish`);
      }
    });
    chain = run;
    return run;
  };
}
