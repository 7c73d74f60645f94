// The pages of indexed documents MCP `resources/list` answers with: a stable order over the store's
// rows, the cursor an opaque base64url of the last row read. A cursor that is not ours is bad_request.
import { badRequest, type DocumentHead, type Store } from '../../core/index.ts';
import { visibleHeads } from '../tools-builtin/api.ts';

const MAX_READS = 20;

export type DocumentLister = (cursor: string | undefined) => Promise<DocumentPage>;

export interface DocumentPage {
  documents: DocumentHead[];
  /** Opaque; pass it back for the next page. Absent on the last page. */
  nextCursor: string | undefined;
}

/** One page of documents in a stable order. */
export async function listDocumentPage(
  store: Pick<Store, 'listDocuments' | 'getDocument'>,
  cursor: string | undefined,
  pageSize = 100,
): Promise<DocumentPage> {
  let after = 0;
  if (cursor !== undefined) {
    after = Number(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Number.isSafeInteger(after) || after < 0)
      throw badRequest(`invalid cursor '${cursor}': pass back a nextCursor from an earlier page`);
  }
  // Only documents in the caller's scope (ADR 0225); a page of hidden rows reads on, a bounded number of times.
  const documents: DocumentHead[] = [];
  let last: number | null = after;
  for (let reads = 0; last !== null && documents.length === 0 && reads < MAX_READS; reads++) {
    const page = await store.listDocuments(last, pageSize);
    documents.push(...(await visibleHeads(store, page.documents)));
    last = page.last;
  }
  return { documents, nextCursor: last === null ? undefined : Buffer.from(String(last)).toString('base64url') };
}
