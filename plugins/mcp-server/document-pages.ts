// The pages of indexed documents MCP `resources/list` answers with: a stable order over the store's
// rows, the cursor an opaque base64url of the last row read. A cursor that is not ours is bad_request.
import { badRequest, type DocumentHead, type Store } from '../../core/index.ts';

export type DocumentLister = (cursor: string | undefined) => Promise<DocumentPage>;

export interface DocumentPage {
  documents: DocumentHead[];
  /** Opaque; pass it back for the next page. Absent on the last page. */
  nextCursor: string | undefined;
}

/** One page of documents in a stable order. */
export async function listDocumentPage(
  store: Pick<Store, 'listDocuments'>,
  cursor: string | undefined,
  pageSize = 100,
): Promise<DocumentPage> {
  let after = 0;
  if (cursor !== undefined) {
    after = Number(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Number.isSafeInteger(after) || after < 0)
      throw badRequest(`invalid cursor '${cursor}': pass back a nextCursor from an earlier page`);
  }
  const page = await store.listDocuments(after, pageSize);
  return {
    documents: page.documents,
    nextCursor: page.last === null ? undefined : Buffer.from(String(page.last)).toString('base64url'),
  };
}
