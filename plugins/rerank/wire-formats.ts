// The rerank APIs' wire formats: the request body each expects and where its scores are in the answer.
//   cohere  POST {base}/rerank (v1, v2): { model, query, documents, top_n } → { results: [{ index, relevance_score }] }
//   jina    POST {base}/rerank:          { model, query, documents, top_n } → { results: [{ index, relevance_score }] }
//   voyage  POST {base}/rerank:          { model, query, documents, top_k } → { data: [{ index, relevance_score }] }
//   tei     POST {base}/rerank:          { query, texts, truncate }         → [{ index, score }]
// Pure: no I/O. An answer of another shape is an upstream error.
import { KbctxError } from '../../core/api/plugin.ts';
import type { RerankFormat } from './rerank-section.ts';

export const DEFAULT_BASE_URLS: Readonly<Record<RerankFormat, string | null>> = {
  cohere: 'https://api.cohere.com/v2',
  jina: 'https://api.jina.ai/v1',
  voyage: 'https://api.voyageai.com/v1',
  tei: null,
};

export function rerankBody(
  format: RerankFormat,
  model: string | null,
  query: string,
  documents: readonly string[],
): Record<string, unknown> {
  const named = model === null ? {} : { model };
  switch (format) {
    case 'tei':
      return { query, texts: documents, truncate: true };
    case 'voyage':
      return { ...named, query, documents, top_k: documents.length };
    default:
      return { ...named, query, documents, top_n: documents.length };
  }
}

/** The answer → one score per document, by its index in the request (NaN where the remote gave none). */
export function parseRerankAnswer(format: RerankFormat, answer: unknown, count: number): number[] {
  const list = format === 'tei' ? answer : field(answer, format === 'voyage' ? 'data' : 'results');
  const scoreKey = format === 'tei' ? 'score' : 'relevance_score';
  if (!Array.isArray(list)) throw malformed(format, 'no list of results');
  const scores = Array.from({ length: count }, () => Number.NaN);
  for (const item of list) {
    const index = field(item, 'index');
    const score = field(item, scoreKey);
    if (!Number.isInteger(index) || (index as number) < 0 || (index as number) >= count || typeof score !== 'number')
      throw malformed(format, `a result without a valid index and ${scoreKey}`);
    scores[index as number] = score;
  }
  return scores;
}

const field = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;

const malformed = (format: RerankFormat, what: string): KbctxError =>
  new KbctxError('upstream_error', `the ${format} rerank API answered ${what}`);
