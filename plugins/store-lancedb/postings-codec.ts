// How postings-table.ts packs one term's postings into a Lance binary cell, and its per-document and
// totals records. Pure: bytes in, typed arrays out; it knows nothing of Lance.
//
// A list is struct-of-arrays after a u32 count n: slots (i32, ascending), groups (i32), lengths (i32),
// freqs (u16), little-endian. A slot is a chunk row's keyword row id (never reused); its group and
// length travel with every posting so a reader needs no per-row table loaded at open.

/** Postings of one term, ascending by slot. */
export interface PackedList {
  slots: Int32Array;
  groups: Int32Array;
  lengths: Int32Array;
  freqs: Uint16Array;
}

/** One document as the postings table records it (the `doc` row). */
export interface DocRecord {
  group: number;
  /** Its chunks' slots, ids (the main table's `c:<id>` rows) and token counts, in the same order. */
  slots: number[];
  chunkIds: string[];
  lengths: number[];
  /** Hash of what its postings were made from (catch-up compares it). */
  stamp: string;
}

/** The totals (the `meta` row): exact, rewritten by every commit of the postings table. */
export interface Totals {
  /** The main table's version these postings reflect (-1: none yet). */
  version: number;
  /** Live chunk rows (N) and their summed token counts (avgdl = totalLength / rows). */
  rows: number;
  totalLength: number;
  nextSlot: number;
  nextGroup: number;
  /** Slots removed since the last merge: still in term rows, skipped when read. */
  dead: number[];
  /** Postings in `term` rows (merged) and in `delta` rows, and the writes that made delta rows since the merge. */
  basePostings: number;
  deltaPostings: number;
  deltaWrites: number;
}

export const EMPTY_TOTALS: Totals = {
  version: -1,
  rows: 0,
  totalLength: 0,
  nextSlot: 0,
  nextGroup: 0,
  dead: [],
  basePostings: 0,
  deltaPostings: 0,
  deltaWrites: 0,
};

export function packList(list: PackedList): Uint8Array {
  const n = list.slots.length;
  const out = new ArrayBuffer(4 + 14 * n);
  new Uint32Array(out, 0, 1)[0] = n;
  new Int32Array(out, 4, n).set(list.slots);
  new Int32Array(out, 4 + 4 * n, n).set(list.groups);
  new Int32Array(out, 4 + 8 * n, n).set(list.lengths);
  new Uint16Array(out, 4 + 12 * n, n).set(list.freqs);
  return new Uint8Array(out);
}

export function unpackList(bytes: Uint8Array): PackedList {
  // Arrow's cells need not be 4-byte aligned: copy once into an aligned buffer.
  const buf = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  const n = new DataView(buf.buffer, buf.byteOffset, 4).getUint32(0, true);
  const at = buf.byteOffset + 4;
  return {
    slots: new Int32Array(buf.buffer, at, n),
    groups: new Int32Array(buf.buffer, at + 4 * n, n),
    lengths: new Int32Array(buf.buffer, at + 8 * n, n),
    freqs: new Uint16Array(buf.buffer, at + 12 * n, n),
  };
}

/** Lists with ascending, disjoint slot ranges (base first, then deltas by their first slot), joined. */
export function concatLists(lists: readonly PackedList[], keep: (slot: number) => boolean): PackedList {
  let n = 0;
  for (const l of lists) for (const s of l.slots) if (keep(s)) n++;
  const out: PackedList = {
    slots: new Int32Array(n),
    groups: new Int32Array(n),
    lengths: new Int32Array(n),
    freqs: new Uint16Array(n),
  };
  let j = 0;
  for (const l of lists)
    for (let i = 0; i < l.slots.length; i++) {
      if (!keep(l.slots[i]!)) continue;
      out.slots[j] = l.slots[i]!;
      out.groups[j] = l.groups[i]!;
      out.lengths[j] = l.lengths[i]!;
      out.freqs[j++] = l.freqs[i]!;
    }
  return out;
}

/** Growing builder of one list (postings appended in slot order). */
export class ListBuilder {
  readonly slots: number[] = [];
  readonly groups: number[] = [];
  readonly lengths: number[] = [];
  readonly freqs: number[] = [];

  push(slot: number, group: number, length: number, freq: number): void {
    this.slots.push(slot);
    this.groups.push(group);
    this.lengths.push(length);
    this.freqs.push(freq);
  }

  build(): PackedList {
    return {
      slots: Int32Array.from(this.slots),
      groups: Int32Array.from(this.groups),
      lengths: Int32Array.from(this.lengths),
      freqs: Uint16Array.from(this.freqs),
    };
  }
}
