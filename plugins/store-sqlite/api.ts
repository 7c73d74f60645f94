// store-sqlite's contract entry: the `kbctx.local-store` service, which opens a single-file local store at a path.
// This plugin provides it; a store that keeps a local read copy (the PostgreSQL store's per-replica mirror) uses it,
// so neither imports the other's code and a plugin can provide another local engine (ADR 0232). Types and one ref.
import { createServiceRef, type Store } from '../../core/api/plugin.ts';

export interface LocalStoreOpener {
  (file: string, options: { keywordEngine: 'postings' | 'fts5' }): Store;
}

export const localStoreService = createServiceRef<LocalStoreOpener>('kbctx.local-store');
