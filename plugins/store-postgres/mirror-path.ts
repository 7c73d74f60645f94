// This replica's mirror of a PostgreSQL index (ADR 0111): beside [db] path, one file per database
// URL (without the password), so a config pointed at another database never reads a stale mirror.
import path from 'node:path';
import { sha256Hex } from '../../core/api/algorithms.ts';

export function mirrorPathFor(dbPath: string, redactedUrl: string): string {
  const key = sha256Hex(redactedUrl).slice(0, 12);
  return path.join(path.dirname(dbPath), `replica-${key}.sqlite`);
}
