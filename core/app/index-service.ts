// The index service the composition root provides to plugins (store, retrieval settings, search,
// connector labels): what the built-in tools are made of. And the ref of the read services plugins'
// `ctx.search/get/sources` answer with, provided by tools-builtin (the built-in tools' bodies).
import type { RetrievalConfig } from '../config/types.ts';
import type { IndexServices } from '../plugin-context.ts';
import { createServiceRef } from '../services.ts';
import type { Store } from '../store/store.ts';
import type { SearchDeps } from './search.ts';

export interface BuiltinDeps {
  store: Store;
  retrieval: RetrievalConfig;
  searchDeps: () => SearchDeps;
  connectorLabels: () => string[];
}

export const indexService = createServiceRef<BuiltinDeps>('kbctx.index');

/** `ctx.search`, `ctx.get`, `ctx.sources`: provided by tools-builtin; without it a plugin's call is a config error. */
export const indexToolsService = createServiceRef<IndexServices>('kbctx.index-tools');
