// Where each term's rows lie in the postings table (ADR 0247): term → the Lance row ids of its `term` and
// `delta` rows, read in one scan of the `term` column, so a cold search takes its terms' rows by id
// (`takeRowIds`, 8 against 14 ms for one term at 52k documents) instead of finding them through the `term`
// BTREE, and a term the table lacks costs no read at all. Row ids are addresses (fragment, offset): a
// compaction or a merge moves rows, so a take is checked (every row asked for, each of a term asked for)
// and the caller falls back to the filtered query when it is not. One entry per distinct term plus one
// number per row: vocabulary-sized, bounded by merges (deltas are folded into term rows). Reads only.
import type { Table } from '@lancedb/lancedb';
import type { Vector } from 'apache-arrow';

// The cells decoded batch by batch from Arrow's buffers: Vector.get(i) looks the batch up for every cell, and
// even its iterator took 1.7–1.9 s for the 310k terms at 52k documents under load, against 0.2–0.8 s here.
function utf8Cells(vector: Vector): string[] {
  if (vector.data.some((d) => d.offset !== 0 || d.nullCount > 0)) return Array.from(vector, (t) => t as string);
  const out: string[] = [];
  for (const data of vector.data) {
    const offsets = data.valueOffsets as Int32Array;
    const bytes = Buffer.from(data.values.buffer, data.values.byteOffset, data.values.byteLength);
    for (let i = 0; i < data.length; i++) out.push(bytes.toString('utf8', offsets[i]!, offsets[i + 1]!));
  }
  return out;
}

/** Unsigned 64-bit cells as numbers (row ids: fragment × 2³² + offset, far below 2⁵³). */
function u64Cells(vector: Vector): number[] {
  if (vector.data.some((d) => d.offset !== 0)) return Array.from(vector, (id) => Number(id as bigint));
  const out: number[] = [];
  for (const data of vector.data) {
    const words = new Uint32Array(data.values.buffer, data.values.byteOffset, 2 * data.length);
    for (let i = 0; i < data.length; i++) out.push(words[2 * i + 1]! * 2 ** 32 + words[2 * i]!);
  }
  return out;
}

const COLUMNS = ['row_key', 'kind', 'term', 'data'];

export class TermRows {
  /** Term → its position in `starts`; its row ids are ids[starts[k]] .. ids[starts[k + 1]]. */
  private readonly at: Map<string, number>;
  private readonly starts: Int32Array;
  private readonly ids: Float64Array;

  private constructor(at: Map<string, number>, starts: Int32Array, ids: Float64Array) {
    this.at = at;
    this.starts = starts;
    this.ids = ids;
  }

  /** One scan of every `term` and `delta` row's term and row id. */
  static async read(table: Table): Promise<TermRows> {
    const read = await table.query().where(`kind IN ('term', 'delta')`).select(['term']).withRowId().toArrow();
    const terms = utf8Cells(read.getChild('term') as Vector);
    const rowIds = u64Cells(read.getChild('_rowid') as Vector);
    const at = new Map<string, number>();
    const counts: number[] = [];
    for (const term of terms) {
      const k = at.get(term);
      if (k === undefined) {
        at.set(term, counts.length);
        counts.push(1);
      } else counts[k]!++;
    }
    const starts = new Int32Array(counts.length + 1);
    for (let k = 0; k < counts.length; k++) starts[k + 1] = starts[k]! + counts[k]!;
    const next = starts.slice(0, counts.length);
    const ids = new Float64Array(terms.length);
    terms.forEach((term, i) => {
      ids[next[at.get(term)!]!++] = rowIds[i]!;
    });
    return new TermRows(at, starts, ids);
  }

  /** Distinct terms, and rows located. */
  get terms(): number {
    return this.at.size;
  }
  get rows(): number {
    return this.ids.length;
  }

  /** Whether the table held rows of the term when it was read. */
  has(term: string): boolean {
    return this.at.has(term);
  }

  /**
   * The `term` and `delta` rows (kind, term, data) of `terms`, taken by id; null when the rows moved since
   * the scan (a take that fails, or does not give back as many distinct rows, each of a term asked for):
   * then ask by filter.
   */
  async take(table: Table, terms: readonly string[]): Promise<Record<string, unknown>[] | null> {
    const ids: number[] = [];
    for (const term of terms) {
      const k = this.at.get(term);
      if (k !== undefined) for (let i = this.starts[k]!; i < this.starts[k + 1]!; i++) ids.push(this.ids[i]!);
    }
    if (ids.length === 0) return [];
    let rows: Record<string, unknown>[];
    try {
      rows = await table.takeRowIds(ids).select(COLUMNS).toArray();
    } catch {
      return null;
    }
    const asked = new Set(terms);
    const fits =
      rows.length === ids.length &&
      new Set(rows.map((r) => r['row_key'])).size === ids.length &&
      rows.every((r) => asked.has(r['term'] as string));
    return fits ? rows : null;
  }
}
