// store-sqlite's contract entry. The `kbctx.local-store` service, which opens a single-file local store at a path:
// this plugin provides it; a store that keeps a local read copy (the PostgreSQL store's per-replica mirror) uses it,
// so neither imports the other's code and a plugin can provide another local engine (ADR 0232). And what this store
// defines that the other stores reuse (ADR 0240): keyword scoring, the exact vector scan, local lock files and the
// local index's access check — small modules with no imports but core's plugin entry, so the entry stays light.
import { createServiceRef, type StoreConfigSection, type Store } from '../../core/api/plugin.ts';

export interface LocalStoreOpener {
  (file: string, options: { keywordEngine: 'postings' | 'fts5' }): Store;
}

export const localStoreService = createServiceRef<LocalStoreOpener>('kbctx.local-store');

// Keyword scoring as this store defines it (FTS5's BM25, ADR 0004), which LanceDB's keyword index reproduces so both
// stores rank alike: the arithmetic, block-max top-k over postings, the words a symbol path is found by (ADR 0240).
export { bm25Reference, COLUMN_WEIGHTS, fts5Idf, normalizeBm25 } from './keyword/bm25.ts';
export { termBounds, topGroups } from './keyword/postings-topk.ts';
export type { Postings, RowStats, ScoredTerm, TermBounds } from './keyword/postings-topk.ts';
export { symbolWords } from './keyword/symbol-words.ts';
// The lock files and the access check of an index on the local disk, which LanceDB's local store and PostgreSQL's read
// copy use as well.
export { fileLocks, lockConnector } from './file-locks.ts';
export { checkIndexAccess, type IndexAccessCheck } from './index-access.ts';
// The exact vector scan (LanceDB's store rescores with its dot product).
export { dotAt, exactTopK, type RowScore } from './vector/vector-topk.ts';
/**
 * `[db] keyword_engine` (ADR 0239): `postings` (top-k with dynamic pruning, a file beside the index) or `fts5` (FTS5
 * ranks every match). The PostgreSQL store's local mirror, a store of this plugin's, reads it too.
 */
export const sqliteDbKeys: StoreConfigSection = {
  label: 'SQLite',
  schema: { type: 'object', properties: { keyword_engine: { enum: ['postings', 'fts5'], default: 'postings' } } },
  toConfig: (t) => ({ keywordEngine: t['keyword_engine'] }),
};
