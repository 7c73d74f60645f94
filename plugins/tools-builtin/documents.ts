// Reading documents: `get` by id (404 when unknown or outside the caller's scope), with its chunks (the web page, Lua's
// `context.get`), or cut to a line range (`get` with `lines`, ADR 0210; the range reader is `get`'s, so here:
// ADR 0249).
import {
  badRequest,
  notFound,
  type Chunk,
  type DocumentHead,
  type Store,
  type StoredDocument,
} from '../../core/api/plugin.ts';
import { documentInScope, lineStarts, requestOrigin } from '../../core/api/use-cases.ts';

/** The document, or not_found; a document outside the caller's scope is the same not_found (ADR 0225). */
export async function getDocument(store: Store, id: string): Promise<StoredDocument> {
  const doc = typeof id === 'string' && id.trim() !== '' ? await store.getDocument(id.trim()) : null;
  if (!doc || !visible(doc)) throw notFound(`document not found: ${id}`);
  return doc;
}

function visible(doc: StoredDocument): boolean {
  const scope = requestOrigin().scope;
  return scope === undefined || documentInScope(doc, scope);
}

/**
 * The heads (a listing's page: MCP resources/list) of documents that exist for the caller. A scope with `meta` reads
 * each document's metadata, which heads do not carry.
 */
export async function visibleHeads(
  store: Pick<Store, 'getDocument'>,
  heads: readonly DocumentHead[],
): Promise<DocumentHead[]> {
  const scope = requestOrigin().scope;
  if (scope === undefined) return [...heads];
  const out: DocumentHead[] = [];
  for (const head of heads) {
    const doc =
      scope.meta === undefined ? { ...head, contentType: '', metadata: {} } : await store.getDocument(head.id);
    if (doc !== null && documentInScope(doc, scope)) out.push(head);
  }
  return out;
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
      `parameter 'lines' must be a line range like 12-48 (1-based, ` +
        `start ≤ end) or one line like 12, got ${JSON.stringify(lines)}`,
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

/** `12-48` (or `12`, one line) → the range; undefined when it is not one (1-based, start ≤ end). */
export function parseLineRange(text: string): { start: number; end: number } | undefined {
  const m = /^\s*(\d{1,9})\s*(?:-\s*(\d{1,9})\s*)?$/.exec(text);
  if (!m) return undefined;
  const start = Number(m[1]);
  const end = m[2] === undefined ? start : Number(m[2]);
  return start >= 1 && end >= start ? { start, end } : undefined;
}

/** Lines `start`..`end` (1-based, inclusive) of `text`, with their original line ends; past the end: what exists. */
export function sliceLines(text: string, range: { start: number; end: number }): string {
  const starts = lineStarts(text);
  const from = starts[range.start - 1];
  if (from === undefined) return '';
  const to = starts[range.end] ?? text.length;
  return text.slice(from, to).replace(/(?:\r\n|\r|\n)$/, '');
}
