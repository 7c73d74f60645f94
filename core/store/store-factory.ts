// The store slot's values: what `createStore.for(engine)` taps receive (`[db]`, validated) and return.
// One implementation per store plugin (sqlite, postgres, lancedb, or a third party's); the Store
// interface itself is store.ts.
import type { ConnectorLocks, Store } from './store.ts';

/** `[db]` as the `createStore.for(engine)` taps receive it (validated; paths absolute). */
export interface StoreOptions {
  /** `[db] engine`: the key the store plugin tapped (`sqlite`, `postgres`, …). */
  engine: string;
  /**
   * `[db] path`: the SQLite file, or the folder beside it where a store keeps local files; or an object-storage URL
   * (`s3://bucket/prefix`, kept as written) for a store that claims one (`remotePath`, ADR 0241).
   */
  path: string;
  /** `[db] url` (or KBCTX_DATABASE_URL); null when not set. */
  url: string | null;
  poolSize: number;
  keywordEngine: 'postings' | 'fts5';
  /** `[db] storage_options`, for a `path` on object storage (`s3://bucket/prefix`, ADR 0231); absent: none. */
  storageOptions?: Readonly<Record<string, string>> | undefined;
  /** `[db] lock_lease` in seconds: a lock on object storage not renewed for this long is taken over (ADR 0230). */
  lockLeaseSecs?: number | undefined;
  /**
   * What the command needs of the index (absent: `create`). `create` (init, sync, serve, the library):
   * create it when missing. `write` (embed): it must exist and be writable. `read` (search, stats,
   * doctor, get, …): it must exist and is never created; a store that cannot be written opens read-only.
   * A missing index (not `create`) or one a writer cannot write is KbctxError `unavailable` naming the path.
   */
  access?: IndexAccess | undefined;
}

/** See StoreOptions.access. */
export type IndexAccess = 'read' | 'write' | 'create';

/**
 * What a `createStore.for(engine)` tap returns, synchronously (a store whose driver loads
 * asynchronously returns a store that forwards to it once open, as the PostgreSQL one does).
 */
export interface OpenedStore {
  store: Store;
  /** The per-connector locks (one writer per connector across processes). */
  locks: ConnectorLocks;
  /** How `kbctx serve`, `doctor` and `init` name the engine ('SQLite', 'PostgreSQL'). */
  label: string;
  /** The schema version the store migrates to, for `kbctx init` (may import the store's migrations). */
  schemaVersion?: (() => number | Promise<number>) | undefined;
}
