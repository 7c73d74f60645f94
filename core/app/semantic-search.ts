// Semantic and hybrid search, plugged into app/search.ts as its SemanticSearch.
//
// semantic: embed the query, cosine top-k over the chunk vectors (source and since filters inside
//           candidate retrieval), best chunk per document; score = cosine clipped to [0, 1].
// hybrid:   keyword candidates (candidate_k_keyword documents) and vector candidates
//           (candidate_k_vector documents), both filtered before their cut; keyword candidates outside
//           the vector cut get their exact cosine too; fused by core/search/fusion.ts with
//           hybrid_alpha as the semantic weight ("weighted" or "rrf"); unset, the embedder's own
//           weight (the bundled USE-Lite: 0.3), else 0.6 (ADR 0150).
import { chunkPlace } from '../domain/line-ranges.ts';
import { DEFAULT_HYBRID_ALPHA } from '../config/schema.ts';
import { KbctxError } from '../domain/errors.ts';
import type { Chunk, SearchResult } from '../domain/models.ts';
import { analyzeQuery } from '../search/analyze-query.ts';
import { fuse } from '../search/fusion.ts';
import { makeSnippet } from '../search/snippet.ts';
import type { Embedder } from '../embed/embedder.ts';
import type { DocumentHead } from '../store/store.ts';
import { UNOBSERVED } from './index-service.ts';
import { searchFilter, type SearchDeps, type SearchResponse, type SemanticSearch } from './search.ts';
import type { SearchParams } from '../domain/models.ts';

interface Hit {
  document: DocumentHead;
  chunk: Chunk;
}

export function createSemanticSearch(embedder: () => Embedder): SemanticSearch {
  return {
    async search(params: SearchParams, deps: SearchDeps): Promise<SearchResponse> {
      const e = embedder();
      const observe = deps.observe ?? UNOBSERVED;
      const space = (await deps.store.embeddingSpaces()).find(
        (s) => s.model === e.model && (e.dims === null || s.dims === e.dims),
      );
      if (!space) {
        throw new KbctxError(
          'embeddings_not_configured',
          `${params.mode} search needs embeddings from ${e.model}, and there are none yet: run \`kbctx embed pending\``,
        );
      }
      const query = await observe.stage('search.embed_query', { 'kbctx.embedding.model': e.model }, async () =>
        e.embedQuery ? e.embedQuery(params.query) : (await e.embed([params.query]))[0],
      );
      if (!query || query.length !== space.dims)
        throw new KbctxError(
          'upstream_error',
          `the query vector has ${query?.length} dimensions, the stored ones ${space.dims}`,
        );
      const filter = searchFilter(params);
      const { retrieval } = deps;
      const terms = analyzeQuery(params.query);
      const stems = new Set(terms.map((t) => t.stem));
      const vector = await observe.stage(
        'search.vector',
        { 'kbctx.search.candidate_k': retrieval.candidateKVector },
        () =>
          deps.store.vectorSearch({
            vector: query,
            space,
            limit: params.mode === 'semantic' ? params.limit : retrieval.candidateKVector,
            candidateK: retrieval.candidateKVector,
            filter,
          }),
      );
      const toResult = (hit: Hit, score: number, keyword: number | null, semantic: number | null): SearchResult => ({
        id: hit.document.id,
        source: hit.document.source,
        sourceId: hit.document.sourceId,
        title: hit.document.title,
        score: round(score),
        snippet: makeSnippet(hit.chunk.text, stems),
        ...chunkPlace(hit.chunk),
        chunkText: hit.chunk.text,
        sourceUrl: hit.document.sourceUrl,
        updatedAt: hit.document.updatedAt,
        explain: params.explain
          ? {
              keywordScore: keyword === null ? null : round(keyword),
              semanticScore: semantic === null ? null : round(semantic),
              hybridScore: round(score),
              chunkId: hit.chunk.id,
              chunkIndex: hit.chunk.chunkIndex,
            }
          : undefined,
      });
      if (params.mode === 'semantic') {
        const results = vector.hits.map((h) => toResult(h, clamp(h.score), null, h.score));
        return {
          results,
          explain: {
            mode: 'semantic',
            alpha: null,
            keywordCandidates: 0,
            vectorCandidates: vector.candidateCount,
            terms: [],
          },
        };
      }
      const keyword = await observe.stage(
        'search.keyword',
        { 'kbctx.search.candidate_k': retrieval.candidateKKeyword },
        () =>
          deps.store.keywordSearch({
            terms,
            limit: retrieval.candidateKKeyword,
            candidateK: retrieval.candidateKKeyword,
            filter,
          }),
      );
      // Keyword candidates the vector cut missed still get their true cosine, so a strong keyword
      // match is not scored as semantically unrelated just for ranking below the vector cut.
      const inVector = new Set(vector.hits.map((h) => h.document.id));
      const missing = keyword.hits.map((h) => h.document.id).filter((id) => !inVector.has(id));
      const scored = await observe.stage('search.vector_scores', { 'kbctx.search.documents': missing.length }, () =>
        deps.store.documentVectorScores(query, space, missing),
      );
      const extra = [...scored].map(([id, score]) => ({
        id,
        score,
      }));
      const vectorList = [...vector.hits.map((h) => ({ id: h.document.id, score: h.score })), ...extra].sort(
        (a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
      );
      const alpha = retrieval.hybridAlpha ?? e.hybridAlpha ?? DEFAULT_HYBRID_ALPHA;
      const fused = observe.stage('search.fusion', { 'kbctx.search.fusion': retrieval.fusion }, () =>
        fuse(
          keyword.hits.map((h) => ({ id: h.document.id, score: h.score })),
          vectorList,
          { method: retrieval.fusion, alpha, limit: params.limit },
        ),
      );
      // The keyword chunk is shown when there is one: its snippet holds the matched words.
      const hits = new Map<string, Hit>();
      for (const h of vector.hits) hits.set(h.document.id, h);
      for (const h of keyword.hits) hits.set(h.document.id, h);
      const results = fused.map((f) => toResult(hits.get(f.id) as Hit, f.hybrid, f.keyword, f.semantic));
      return {
        results,
        explain: {
          mode: 'hybrid',
          alpha,
          keywordCandidates: keyword.candidateCount,
          vectorCandidates: vector.candidateCount,
          terms: keyword.matchedTerms.map((t) => t.token),
        },
      };
    },
  };
}

const clamp = (n: number): number => Math.min(1, Math.max(0, n));
const round = (n: number): number => Math.round(n * 1e6) / 1e6;
