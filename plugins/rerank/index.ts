// First-party plugin: a reranker on the kernel's `rank` hook (docs/search.md "Reranking"). It owns
// `[rerank]` (rerank-section.ts); with a `provider` set it taps `rank`, and the search hands it the best
// max(limit×3, 30) fused candidates before the cut to `limit` (ADR 0148). Without one it taps nothing,
// so search stays as it was. With one it also provides `kbctx.rerank` (api.ts: the web page's toggle, eval's
// rerank axis). The reranking code loads on the first search, never at start-up.
import { definePlugin, hostService, requireOwn } from '../../core/api/plugin.ts';
import { featureExtractionFiles, modelsService } from '../models/api.ts';
// Required only with a reranker configured, so a config without one loads no more at start-up.
import type * as Api from './api.ts';
import { rerankCacheKey, rerankConfigOf, rerankSection } from './rerank-section.ts';
import type { Reranker } from './http-reranker.ts';
import type { RerankConfig } from './rerank-section.ts';

/** What a cross-encoder folder must hold (the same files as a feature-extraction model's). */
const CROSS_ENCODER_FILES = featureExtractionFiles('onnx/model.onnx');

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
    const { rerankService } = requireOwn<typeof Api>(import.meta.url, './api.ts');
    kernel.provide(rerankService, { provider: config.provider, model: config.model, candidates: config.candidates });
    // One promise: concurrent first searches share one reranker (one worker), they do not each make one.
    let reranker: Promise<Reranker> | undefined;
    const createReranker = async (c: RerankConfig): Promise<Reranker> => {
      if (c.provider === 'http') return (await import('./http-reranker.ts')).createHttpReranker(c, host.env);
      const { modelPath, model } = c;
      const folder = (): Promise<string> =>
        modelPath !== null
          ? Promise.resolve(modelPath)
          : kernel.use(modelsService).fetch(model as string, CROSS_ENCODER_FILES);
      return (await import('./transformers-reranker.ts')).createTransformersReranker(folder, c.threads);
    };
    // Reranked pages are cached with the search cache under these settings; a fail-open page is not (ADR 0197).
    const cacheKey = rerankCacheKey(config);
    kernel.hooks.rank.tapPromise({ name: 'rerank', cacheKey }, async (hits, request, ctx, control) => {
      reranker ??= createReranker(config).catch((error: unknown) => {
        reranker = undefined; // tried again on the next search
        throw error;
      });
      const [made, { rerankHits }] = await Promise.all([reranker, import('./rerank-hits.ts')]);
      return rerankHits(hits, request, made, config, ctx, control);
    });
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
