// search / get / sources for plugins' `ctx`: the built-in tools' answers, computed from the use-cases
// directly, so they work even when the tools-builtin plugin is dropped.
import type { IndexServices } from '../plugin-context.ts';
import type { RetrievalConfig } from '../config/types.ts';
import type { Store } from '../store/store.ts';
import { getDocument } from './documents.ts';
import { parseSearchParams } from './search-params.ts';
import { search, type SearchDeps } from './search.ts';
import { listSources } from './sources.ts';
import { documentToWire, searchResponseToWire, sourcesToWire } from './wire.ts';

export function indexServicesOf(deps: SearchDeps, store: Store, retrieval: RetrievalConfig, connectorLabels: () => string[]): IndexServices {
  return {
    search: async (input) => {
      const params = parseSearchParams(input, retrieval);
      return searchResponseToWire(await search(deps, params), params.explain);
    },
    get: async (id) => documentToWire(await getDocument(store, id)),
    sources: async () => sourcesToWire(await listSources(store, connectorLabels())),
  };
}
