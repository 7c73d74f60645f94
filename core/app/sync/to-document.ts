// A source item as the document the store keeps: defaults filled in, its id given, its content hash taken over what a
// reader sees (title, body, URL, type, metadata). Pure.
import { sha256Hex } from '../../domain/ids.ts';
import type { SourceItem } from '../../domain/models.ts';
import type { StoredDocument } from '../../store/store.ts';

export function toDocument(item: SourceItem, id: string, source: string, connector: string): StoredDocument {
  const title = item.title?.trim() || item.sourceId;
  const contentType = item.contentType ?? 'text/plain';
  const metadata = item.metadata ?? {};
  const sourceUrl = item.sourceUrl ?? null;
  const contentHash = sha256Hex(JSON.stringify([title, item.body, sourceUrl, contentType, metadata]));
  return {
    id,
    source,
    connector,
    sourceId: item.sourceId,
    sourceUrl,
    title,
    body: item.body,
    contentType,
    metadata,
    updatedAt: item.updatedAt ?? new Date().toISOString(),
    contentHash,
  };
}
