// store-lancedb's contract entry: what its `[db]` section claims (ADR 0241), for the config loader (through the
// plugin's `storeConfigs`) and for other plugins (store-commands' `migrate --to s3://…`). Light: imports nothing.
import type { StorePathClaim } from '../../core/api/plugin.ts';

// The schemes Lance reads (ADR 0231). Such a path is never resolved against the project folder.
const OBJECT_STORE = /^(s3|gs|az):\/\/[^/]/i;

/** Whether `[db] path` names object storage (`s3://bucket/prefix`, gs://, az://) rather than a local file or folder. */
export function isObjectStorePath(p: string): boolean {
  return OBJECT_STORE.test(p.trim());
}

/** A `[db] path` in a bucket implies this store (ADR 0231). */
export const objectStorePaths: StorePathClaim = { claims: isObjectStorePath, kind: 'object storage' };
