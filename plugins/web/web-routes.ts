// The two JSON endpoints only the web page needs, served through the REST route table (so auth and
// errors work as for every API call): the server's facts with the index statistics, and a
// document's chunks (the chunk-boundary view). Both are thin calls into app use-cases.
import { requestOriginOf, type HttpApp } from '../transport-http/api.ts';
import type { RerankerInfo } from '../rerank/api.ts';
import { type Store, withRequestOrigin } from '../../core/index.ts';
import { chunkToWire, getDocumentWithChunks, indexStats, statsToWire } from '../tools-builtin/api.ts';

export interface WebFacts {
  version: string;
  /** The config file this server runs with (absolute), null for the built-in default. */
  configFile: string | null;
  /** The working directory relative paths were resolved against. */
  workingDir: string;
  /** Absolute path of bin/kbctx.js, for stdio client configs. */
  kbctxBin: string;
  /** `<provider>:<model>` of the configured embedder, null when [embedding] is disabled. */
  embedder: { model: string; dims: number | null } | null;
  defaultLimit: number;
  maxLimit: number;
  /** [server] auth_token_env: the variable holding the API token (never the token); null without auth. */
  authTokenEnv: string | null;
  /** The configured reranker (the page offers a Rerank toggle), null without one. */
  reranker: RerankerInfo | null;
}

export interface WebDeps {
  facts: WebFacts;
  store: Store;
  connectorLabels: () => string[];
}

export function webRoutes({ facts, store, connectorLabels }: WebDeps): (app: HttpApp) => void {
  return (app) => {
    // The token's name and scope (ADR 0223) reach the use-cases through the request origin.
    app.get('/web/info', async (request) => {
      const stats = await withRequestOrigin(requestOriginOf(request, 'web'), () =>
        indexStats(store, connectorLabels(), facts.embedder),
      );
      const embedded = stats.embeddings.some((e) => e.current && e.count > 0);
      return {
        version: facts.version,
        config_file: facts.configFile,
        working_dir: facts.workingDir,
        kbctx_bin: facts.kbctxBin,
        mcp_path: '/mcp',
        auth_token_env: facts.authTokenEnv,
        search: {
          embedder: facts.embedder?.model ?? null,
          semantic_available: facts.embedder !== null && embedded,
          default_limit: facts.defaultLimit,
          max_limit: facts.maxLimit,
          reranker: facts.reranker && { provider: facts.reranker.provider, model: facts.reranker.model },
        },
        stats: statsToWire(stats),
      };
    });
    app.get<{ Params: { id: string } }>('/web/documents/:id/chunks', async (request) => ({
      chunks: (
        await withRequestOrigin(requestOriginOf(request, 'web'), () => getDocumentWithChunks(store, request.params.id))
      ).chunks.map(chunkToWire),
    }));
  };
}
