// What a merge of postings-table.ts writes: every term's merged row joined with its delta rows, dead
// slots dropped; only the terms that changed are rewritten, the emptied ones deleted. Pure: rows in,
// rows and totals out.
import { concatLists, packList, unpackList, type PackedList, type Totals } from './postings-codec.ts';
import { termKey, type PostingsRow } from './postings-changes.ts';

export interface TermPart {
  base: PackedList | null;
  deltas: PackedList[];
}

/** Rows of `term` and `delta` kind, by term. */
export function termParts(rows: readonly Record<string, unknown>[]): Map<string, TermPart> {
  const parts = new Map<string, TermPart>();
  for (const r of rows) {
    const term = r['term'] as string;
    let part = parts.get(term);
    if (!part) parts.set(term, (part = { base: null, deltas: [] }));
    const list = unpackList(r['data'] as Uint8Array);
    if (r['kind'] === 'term') part.base = list;
    else part.deltas.push(list);
  }
  return parts;
}

/** A term's merged list then its deltas by first slot (slots ascend across them), without dead slots. */
export function joinPart({ base, deltas }: TermPart, dead: ReadonlySet<number>): PackedList {
  deltas.sort((a, b) => a.slots[0]! - b.slots[0]!);
  return concatLists(base ? [base, ...deltas] : deltas, (slot) => !dead.has(slot));
}

/** `rows`: every `term` and `delta` row (kind, term, data). */
export function planMerge(
  rows: readonly Record<string, unknown>[],
  dead: ReadonlySet<number>,
  totals: Totals,
): { written: PostingsRow[]; emptied: string[]; next: Totals } {
  const written: PostingsRow[] = [];
  const emptied: string[] = [];
  let base = 0;
  for (const [term, part] of termParts(rows)) {
    const had = part.base?.slots.length ?? 0;
    const changedByDeltas = part.deltas.length > 0;
    const list = joinPart(part, dead);
    base += list.slots.length;
    if (list.slots.length === 0) {
      if (had > 0) emptied.push(term);
    } else if (changedByDeltas || list.slots.length !== had)
      written.push({
        row_key: termKey(term),
        kind: 'term',
        term,
        doc_id: null,
        grp: null,
        data: packList(list),
        info: null,
      });
  }
  return { written, emptied, next: { ...totals, dead: [], basePostings: base, deltaPostings: 0, deltaWrites: 0 } };
}
