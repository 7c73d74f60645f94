// A document head's signature (ADR 0233): the model keeps it instead of the head, to tell an unchanged
// upsert from a changed one and to key the cache of heads read from Lance (row-reader.ts).
import { createHash } from 'node:crypto';
import type { DocumentHead } from '../../core/api/plugin.ts';

/** 64 bits of the sha-256 of the head's fields (a changed head keeps its signature with odds of 2^-64). */
export function headSignature(h: DocumentHead): string {
  return createHash('sha256')
    .update(JSON.stringify([h.id, h.source, h.connector, h.sourceId, h.sourceUrl, h.title, h.updatedAt]))
    .digest('base64url')
    .slice(0, 11);
}
