// First-party plugin: a reranker on the kernel's `rank` hook (docs/search.md "Reranking"). It owns
// `[rerank]` (rerank-section.ts); with a `provider` set it taps `rank`, and the search hands it the best
// max(limit×3, 30) fused candidates before the cut to `limit` (ADR 0148). Without one it taps nothing,
// so search stays as it was. The reranking code loads on the first search, never at start-up.
import { definePlugin, hostService } from '../../core/api/plugin.ts';
import { rerankConfigOf, rerankSection } from './rerank-section.ts';
import type { Reranker } from './http-reranker.ts';

const plugin = definePlugin({
  name: 'rerank',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['rank:rerank'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  configSections: { rerank: rerankSection },
  apply(kernel) {
    const host = kernel.use(hostService);
    const config = rerankConfigOf(host.config);
    if (config === null) return;
    let reranker: Reranker | undefined;
    kernel.hooks.rank.tapPromise('rerank', async (hits, request, ctx) => {
      const [{ createHttpReranker }, { rerankHits }] = await Promise.all([
        import('./http-reranker.ts'),
        import('./rerank-hits.ts'),
      ]);
      reranker ??= createHttpReranker(config, host.env);
      return rerankHits(hits, request, reranker, config, ctx);
    });
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
