// Reading documents: `get` by id (404 when unknown), with its chunks (the web page, Lua's `context.get`).
import { notFound } from '../domain/errors.ts';
import type { Chunk } from '../domain/models.ts';
import type { Store, StoredDocument } from '../store/store.ts';

export async function getDocument(store: Store, id: string): Promise<StoredDocument> {
  const doc = typeof id === 'string' && id.trim() !== '' ? await store.getDocument(id.trim()) : null;
  if (!doc) throw notFound(`document not found: ${id}`);
  return doc;
}

export async function getDocumentWithChunks(
  store: Store,
  id: string,
): Promise<{ document: StoredDocument; chunks: Chunk[] }> {
  const document = await getDocument(store, id);
  return { document, chunks: await store.getChunks(document.id) };
}
