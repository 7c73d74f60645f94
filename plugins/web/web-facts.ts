// What the web page shows about this server (connect-an-agent configs, search modes, the reranker
// through rerank's `kbctx.rerank` contract), read from the open kbctx once when the page is mounted.
import path from 'node:path';
import { packageRoot, VERSION, type Kbctx } from '../../core/index.ts';
import type { WebFacts } from './web-routes.ts';
import { serverConfigOf } from '../transport-http/api.ts';
import { rerankService } from '../rerank/api.ts';

export function webFactsOf(kbctx: Kbctx): WebFacts {
  let embedder: WebFacts['embedder'] = null;
  try {
    embedder = kbctx.index.embedder();
  } catch {
    // a broken [embedding] section leaves semantic search unavailable; the page says so
  }
  return {
    version: VERSION,
    configFile: kbctx.config.file,
    workingDir: kbctx.config.baseDir,
    kbctxBin: path.join(packageRoot(), 'bin', 'kbctx.js'),
    embedder: embedder && { model: embedder.model, dims: embedder.dims },
    defaultLimit: kbctx.config.retrieval.finalLimit,
    maxLimit: kbctx.config.retrieval.maxLimit,
    authTokenEnv: serverConfigOf(kbctx.config).authTokenEnv,
    reranker: kbctx.kernel.services.has(rerankService) ? kbctx.kernel.services.use(rerankService) : null,
  };
}
