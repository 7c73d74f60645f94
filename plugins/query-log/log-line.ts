// One search as a query-log line (ADR 0220): plain data from a `searched` record, nothing read from
// elsewhere. The token appears by name only; with `redact` the query is its SHA-256, never the text.
import { createHash } from 'node:crypto';
import type { SearchRecord } from '../../core/api/plugin.ts';

export interface QueryLogLine {
  time: string;
  /** The token's name (`default` for `[server] auth_token_env`); null without auth (stdio, the CLI). */
  token: string | null;
  surface: string;
  mode: string;
  /** The query as searched (after `query` taps); absent when redacted. */
  query?: string;
  /** Hex SHA-256 of the UTF-8 query; only when redacted. */
  query_sha256?: string;
  /** Every other request parameter as searched (limit, source, since, explain, rerank, filters). */
  params: Record<string, unknown>;
  results: { id: string; score: number }[];
  latency_ms: number;
  /** A reranker scored this page (false when it was off, skipped or failed open). */
  reranked: boolean;
}

export function toLogLine(record: SearchRecord, redact: boolean, now: Date = new Date()): QueryLogLine {
  const { query, mode, ...params } = record.request;
  const defined = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined));
  return {
    time: now.toISOString(),
    token: record.origin.token ?? null,
    surface: record.origin.surface ?? 'unknown',
    mode,
    ...(redact ? { query_sha256: sha256(query) } : { query }),
    params: defined,
    results: record.results.map((r) => ({ id: r.id, score: r.score })),
    latency_ms: record.latencyMs,
    reranked: record.results.some((r) => typeof r.explain?.rerankScore === 'number'),
  };
}

export const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
