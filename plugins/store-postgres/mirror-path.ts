// This replica's mirror of a PostgreSQL index (ADR 0111): beside [db] path, one file per database
// URL (without the password), so a config pointed at another database never reads a stale mirror.
import { createHash } from 'node:crypto';
import path from 'node:path';

export function mirrorPathFor(dbPath: string, redactedUrl: string): string {
  const key = createHash('sha256').update(redactedUrl).digest('hex').slice(0, 12);
  return path.join(path.dirname(dbPath), `replica-${key}.sqlite`);
}
