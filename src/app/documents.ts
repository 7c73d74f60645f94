// Reading documents: `get` by id (404 when unknown) and the full export.
import { notFound } from '../core/errors.ts';
import type { Chunk } from '../core/models.ts';
import type { Store, StoredDocument } from '../store/store.ts';

export function getDocument(store: Store, id: string): StoredDocument {
  const doc = typeof id === 'string' && id.trim() !== '' ? store.getDocument(id.trim()) : null;
  if (!doc) throw notFound(`document not found: ${id}`);
  return doc;
}

export function getDocumentWithChunks(store: Store, id: string): { document: StoredDocument; chunks: Chunk[] } {
  const document = getDocument(store, id);
  return { document, chunks: store.getChunks(document.id) };
}

export function exportIndex(store: Store): { documents: StoredDocument[]; chunks: Chunk[] } {
  return store.exportAll();
}
