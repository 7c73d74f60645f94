// Postings rows as one Arrow table, built column by column: LanceDB's conversion of plain row objects
// copies binary cells value by value (measured: ~0.5 s for one write of 8k rows, most of a merge's 12 s
// at 5k documents), so postings-table.ts hands Lance Arrow data. Built with the CommonJS instance of
// apache-arrow, the one @lancedb/lancedb requires: a table of the ES module instance fails its
// `instanceof` checks and is refused ("schemas must be equivalent").
import { createRequire } from 'node:module';
import type { PostingsRow } from './postings-changes.ts';
import type * as Arrow from 'apache-arrow';
import type { Data, Schema, Table } from 'apache-arrow';

let cjs: typeof Arrow | null = null;
/** Required on first use (the package is optional: absent, the store never gets here). */
const arrowOfLance = (): typeof Arrow => (cjs ??= createRequire(import.meta.url)('apache-arrow') as typeof Arrow);

const STRINGS = ['row_key', 'kind', 'term', 'doc_id', 'info'] as const;

export function postingsSchema(): Schema {
  const { Binary, Field, Int32, Schema, Utf8 } = arrowOfLance();
  return new Schema([
    new Field('row_key', new Utf8(), false),
    new Field('kind', new Utf8(), false),
    new Field('term', new Utf8(), true),
    new Field('doc_id', new Utf8(), true),
    new Field('grp', new Int32(), true),
    new Field('data', new Binary(), true),
    new Field('info', new Utf8(), true),
  ]);
}

export function toArrowTable(rows: readonly PostingsRow[]): Table {
  const arrow = arrowOfLance();
  const schema = postingsSchema();
  const n = rows.length;
  const children = new Map<string, Data>();
  for (const name of STRINGS)
    children.set(
      name,
      arrow.vectorFromArray(
        rows.map((r) => r[name]),
        new arrow.Utf8(),
      ).data[0]!,
    );
  children.set(
    'grp',
    arrow.vectorFromArray(
      rows.map((r) => r.grp),
      new arrow.Int32(),
    ).data[0]!,
  );
  children.set('data', binaryData(rows.map((r) => r.data)));
  const struct = arrow.makeData({
    type: new arrow.Struct(schema.fields),
    length: n,
    nullCount: 0,
    children: schema.fields.map((f) => children.get(f.name)!),
  });
  return new arrow.Table([new arrow.RecordBatch(schema, struct)]);
}

function binaryData(cells: readonly (Uint8Array | null)[]): Data {
  const arrow = arrowOfLance();
  const n = cells.length;
  const offsets = new Int32Array(n + 1);
  const nulls = new Uint8Array((n + 7) >> 3);
  let bytes = 0;
  let nullCount = 0;
  cells.forEach((c, i) => {
    if (c === null) nullCount++;
    else {
      nulls[i >> 3]! |= 1 << (i & 7);
      bytes += c.length;
    }
    offsets[i + 1] = bytes;
  });
  const data = new Uint8Array(bytes);
  cells.forEach((c, i) => c && data.set(c, offsets[i]!));
  return arrow.makeData({
    type: new arrow.Binary(),
    length: n,
    nullCount,
    nullBitmap: nulls,
    valueOffsets: offsets,
    data,
  });
}
