// rerank's contract entry: the `kbctx.rerank` service, provided only while a reranker is configured
// (`[rerank] provider` set), so surfaces and commands can offer the per-call `rerank` switch without
// reading `[rerank]` themselves. Without it (no provider, or the plugin dropped) there is no reranker.
import { createServiceRef } from '../../core/api/plugin.ts';

/** What a surface may say about the configured reranker; nothing about keys, URLs or folders. */
export interface RerankerInfo {
  readonly provider: 'http' | 'transformers';
  /** The model named in `[rerank] model` (http: the remote's; transformers: a hub id), null when none is. */
  readonly model: string | null;
  /** How many fused candidates each search reranks. */
  readonly candidates: number;
}

export const rerankService = createServiceRef<RerankerInfo>('kbctx.rerank');
