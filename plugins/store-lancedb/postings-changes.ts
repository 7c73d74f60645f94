// The rows one write of postings-table.ts commits, worked out from the documents put and removed, the
// documents' current records and the totals. Pure: records in, rows and new totals out.
//
// 1. A removed or replaced document's slots become dead (skipped when read, dropped at the next merge);
//    its rows and tokens leave the totals.
// 2. A put document keeps its group (or takes the next one); each chunk takes the next slot, so slots
//    ascend in write order (as KeywordIndex's row ids do) and a reader's lists stay sorted by appending.
// 3. The new postings become one `delta` row per term for the whole write (not per document).
import { createHash } from 'node:crypto';
import { encodeRowTerms, type RowTerms } from './keyword-index.ts';
import { ListBuilder, packList, type DocRecord, type Totals } from './postings-codec.ts';

/** A document as its postings are made: its chunks (ids, as in the main table) with their analysed terms. */
export interface PostingsDoc {
  id: string;
  chunks: readonly { id: string; terms: RowTerms }[];
}

/** One write: documents put (new or replacing) and ids removed; a put of a removed id puts it. */
export interface PostingsChange {
  put: readonly PostingsDoc[];
  remove: readonly string[];
  /**
   * Every put document is new to the main table (its commit was an append, ADR 0252): postings current at the
   * version before hold no record of them, so none is looked up.
   */
  appended?: boolean;
}

/** A row of the postings table as written (every column present). */
export type PostingsRow = {
  row_key: string;
  kind: 'term' | 'delta' | 'doc' | 'meta';
  term: string | null;
  doc_id: string | null;
  grp: number | null;
  data: Uint8Array | null;
  info: string | null;
};

export const META_KEY = 'm:';
export const termKey = (term: string): string => `t:${term}`;
export const docKey = (id: string): string => `d:${id}`;
const deltaKey = (term: string, firstSlot: number): string => `x:${term}\u0000${firstSlot}`;

export const metaRow = (totals: Totals): PostingsRow => ({
  row_key: META_KEY,
  kind: 'meta',
  term: null,
  doc_id: null,
  grp: null,
  data: null,
  info: JSON.stringify(totals),
});

/** What the document's postings are made from, hashed: equal stamps, equal postings. */
export function stampOf(doc: PostingsDoc): string {
  const hash = createHash('sha1');
  for (const c of doc.chunks) hash.update(`${c.id}\u0001${encodeRowTerms(c.terms)}\u0002`);
  return hash.digest('base64');
}

export interface PlannedWrite {
  rows: PostingsRow[];
  /** Documents whose `doc` rows go (removed, not put again). */
  removed: string[];
  totals: Totals;
}

/** `records`: the current record of every document the change names that has one. */
export function planChange(
  change: PostingsChange,
  records: ReadonlyMap<string, DocRecord>,
  before: Totals,
): PlannedWrite {
  const totals: Totals = { ...before, dead: [...before.dead] };
  const current = new Map(records);
  const retire = (id: string): DocRecord | undefined => {
    const old = current.get(id);
    if (!old) return undefined;
    totals.dead.push(...old.slots);
    totals.rows -= old.slots.length;
    for (const n of old.lengths) totals.totalLength -= n;
    current.delete(id);
    return old;
  };
  const lists = new Map<string, ListBuilder>();
  const docs = new Map<string, PostingsRow>();
  const firstSlot = totals.nextSlot;
  for (const id of change.remove) {
    retire(id);
    docs.delete(id);
  }
  for (const doc of change.put) {
    const group = retire(doc.id)?.group ?? totals.nextGroup++;
    const record: DocRecord = { group, slots: [], chunkIds: [], lengths: [], stamp: stampOf(doc) };
    for (const { id, terms } of doc.chunks) {
      const slot = totals.nextSlot++;
      record.slots.push(slot);
      record.chunkIds.push(id);
      record.lengths.push(terms.length);
      totals.rows++;
      totals.totalLength += terms.length;
      terms.terms.forEach((freq, term) => {
        let list = lists.get(term);
        if (!list) lists.set(term, (list = new ListBuilder()));
        list.push(slot, group, terms.length, freq);
      });
    }
    current.set(doc.id, record);
    docs.set(doc.id, docRow(doc.id, record));
  }
  const rows: PostingsRow[] = [...docs.values()];
  for (const [term, list] of lists) {
    totals.deltaPostings += list.slots.length;
    rows.push({
      row_key: deltaKey(term, firstSlot),
      kind: 'delta',
      term,
      doc_id: null,
      grp: null,
      data: packList(list.build()),
      info: null,
    });
  }
  if (lists.size > 0) totals.deltaWrites++;
  const removed = change.remove.filter((id) => !current.has(id) && records.has(id));
  return { rows: [...rows, metaRow(totals)], removed, totals };
}

export const docRow = (id: string, record: DocRecord): PostingsRow => ({
  row_key: docKey(id),
  kind: 'doc',
  term: null,
  doc_id: id,
  grp: record.group,
  data: null,
  info: JSON.stringify(record),
});
