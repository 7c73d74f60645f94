// The `kbctx.local-store` service: opens a single-file local store at a path. The SQLite store plugin
// provides it; a store that keeps a local read copy (the PostgreSQL store's per-replica mirror) uses
// it, so neither imports the other and a plugin can provide another local engine.
import type { Store } from './store.ts';
import { createServiceRef } from '../services.ts';

export interface LocalStoreOpener {
  (file: string, options: { keywordEngine: 'postings' | 'fts5' }): Store;
}

export const localStoreService = createServiceRef<LocalStoreOpener>('kbctx.local-store');
