// store-sqlite's contract entry: the `kbctx.local-store` service, which opens a single-file local store at a path.
// This plugin provides it; a store that keeps a local read copy (the PostgreSQL store's per-replica mirror) uses it,
// so neither imports the other's code and a plugin can provide another local engine (ADR 0232). Types and one ref.
import { createServiceRef, type ConfigSection, type Store } from '../../core/api/plugin.ts';

export interface LocalStoreOpener {
  (file: string, options: { keywordEngine: 'postings' | 'fts5' }): Store;
}

export const localStoreService = createServiceRef<LocalStoreOpener>('kbctx.local-store');

/**
 * `[db] keyword_engine` (ADR 0239): `postings` (top-k with dynamic pruning, a file beside the index) or `fts5` (FTS5
 * ranks every match). The PostgreSQL store's local mirror, a store of this plugin's, reads it too.
 */
export const sqliteDbKeys: ConfigSection = {
  schema: { type: 'object', properties: { keyword_engine: { enum: ['postings', 'fts5'], default: 'postings' } } },
  toConfig: (t) => ({ keywordEngine: t['keyword_engine'] }),
};
