// The `context` bridge on the main thread (which owns the index): answers a script's
// context.search/get/sources with the same use-cases and wire shapes as the built-in tools.
import { type Store, search, type SearchDeps } from '../../../core/index.ts';
import {
  documentToWire,
  getDocumentWithChunks,
  listSources,
  parseSearchParams,
  searchResultToWire,
  sourcesToWire,
} from '../../tools-builtin/api.ts';
import type { ContextHandler } from './runtime/script-runtime.ts';

export interface ContextBridgeDeps {
  store: Store;
  searchDeps: () => SearchDeps;
  connectorLabels: () => string[];
}

export function createContextBridge(deps: ContextBridgeDeps): ContextHandler {
  return async (method, args) => {
    switch (method) {
      case 'search': {
        // `context.search(q, opts)`, or the table form `context.search{query = q, limit = "5"}`.
        const tableForm = args[0] !== null && typeof args[0] === 'object' && !Array.isArray(args[0]);
        const opts = (tableForm ? args[0] : args[1] && typeof args[1] === 'object' ? args[1] : {}) as Record<
          string,
          unknown
        >;
        const query = tableForm ? opts['query'] : args[0];
        const searchDeps = deps.searchDeps();
        const input = {
          query,
          mode: opts['mode'],
          limit: numeric(opts['limit']),
          source: opts['source'],
          since: opts['since'],
          until: opts['until'],
          filters: opts['filters'],
        };
        const params = parseSearchParams(input, searchDeps.retrieval);
        const response = await search(searchDeps, params);
        return response.results.map(searchResultToWire);
      }
      case 'get': {
        const { document, chunks } = await getDocumentWithChunks(deps.store, String(args[0] ?? ''));
        return {
          ...documentToWire(document),
          chunks: chunks.map((c) => ({
            index: c.chunkIndex,
            text: c.text,
            line_start: c.lineStart ?? null,
            line_end: c.lineEnd ?? null,
          })),
        };
      }
      case 'sources':
        return sourcesToWire(await listSources(deps.store, deps.connectorLabels())).sources;
    }
  };
}

/**
 * Context Harness configs write numbers as strings (`search_limit = "5"`) and its Lua bridge coerces them like Lua
 * does.
 */
function numeric(value: unknown): unknown {
  return typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
}
