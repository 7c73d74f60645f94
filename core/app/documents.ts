// Reading documents: `get` by id (404 when unknown), with its chunks (the web page, Lua's `context.get`), or cut to
// a line range (`get` with `lines`, ADR 0210).
import { badRequest, notFound } from '../domain/errors.ts';
import { lineStarts, parseLineRange, sliceLines } from '../domain/line-ranges.ts';
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

/**
 * The document with only lines `lines` (`12-48` or `12`: 1-based, inclusive, as search results' line_start and
 * line_end give them) of its body, and the range served (its end capped at the body's last line). A range that is
 * not one, or starts past the last line, is a bad_request naming `lines`.
 */
export function documentLines(
  doc: StoredDocument,
  lines: unknown,
): { document: StoredDocument; range: { start: number; end: number } } {
  const range = typeof lines === 'string' ? parseLineRange(lines) : undefined;
  if (range === undefined)
    throw badRequest(
      `parameter 'lines' must be a line range like 12-48 (1-based, start ≤ end) or one line like 12, got ${JSON.stringify(lines)}`,
      { parameter: 'lines' },
    );
  const count = lineStarts(doc.body).length;
  if (range.start > count)
    throw badRequest(`parameter 'lines' starts at line ${range.start}, past the document's last line (${count})`, {
      parameter: 'lines',
    });
  const served = { start: range.start, end: Math.min(range.end, count) };
  return { document: { ...doc, body: sliceLines(doc.body, served) }, range: served };
}
