// The prefilters bench:vectors (LanceDB mode) times: a `where` passing 10 % of rows (`source`), 1 % (`part`)
// and a `doc_id IN (...)` list of 2,000 documents (4 rows each; the store's own prefilter, lance-vectors.ts),
// with their exact filtered top-10; and the scalar indexes on those columns (vector-index.ts's choice).
import type { Table } from '@lancedb/lancedb';
import type { LanceModule } from '../plugins/store-lancedb/lance-module.ts';
import { exactScan } from '../plugins/store-sqlite/vector/exact-scan.ts';
import { seededRandom } from './vector-data.ts';

export interface BenchFilter {
  readonly label: string;
  readonly where: string;
  /** Exact filtered top-k ids per query. */
  readonly truth: number[][];
}

const DOC_LIST = 2000;

export function benchFilters(
  matrix: Float32Array,
  dims: number,
  queries: readonly Float32Array[],
  k: number,
  cols: { source: (i: number) => string; part: (i: number) => string; doc: (i: number) => string },
): BenchFilter[] {
  const n = matrix.length / dims;
  const rand = seededRandom(99);
  const docs = new Set<string>();
  const docCount = Math.ceil(n / 4);
  while (docs.size < Math.min(DOC_LIST, Math.floor(docCount / 10))) docs.add(cols.doc(Math.floor((rand() + 0.5) * n)));
  const quoted = [...docs].map((d) => `'${d}'`).join(', ');
  const specs = [
    { label: `source = 's3' (10% of rows)`, where: `source = 's3'`, keep: (i: number) => cols.source(i) === 's3' },
    { label: `part = 'p3' (1% of rows)`, where: `part = 'p3'`, keep: (i: number) => cols.part(i) === 'p3' },
    {
      label: `doc_id IN (${docs.size} docs, ${((docs.size * 400) / n).toFixed(1)}% of rows)`,
      where: `doc_id IN (${quoted})`,
      keep: (i: number) => docs.has(cols.doc(i)),
    },
  ];
  return specs.map(({ label, where, keep }) => {
    const ids = Array.from({ length: n }, (_, i) => i).filter(keep);
    const sub = new Float32Array(ids.length * dims);
    ids.forEach((id, j) => sub.set(matrix.subarray(id * dims, (id + 1) * dims), j * dims));
    const truth = queries.map((q) => exactScan(sub, dims, q, k).map((r) => ids[r.row]!));
    return { label, where, truth };
  });
}

/** BITMAP on the low-cardinality columns, BTREE on doc_id; returns the build seconds. */
export async function addScalarIndexes(table: Table, { lancedb }: LanceModule): Promise<number> {
  const t = performance.now();
  for (const column of ['source', 'part', 'doc_id'])
    await table.createIndex(column, {
      config: column === 'doc_id' ? lancedb.Index.btree() : lancedb.Index.bitmap(),
      replace: true,
    });
  return (performance.now() - t) / 1000;
}

export async function dropScalarIndexes(table: Table): Promise<void> {
  for (const i of await table.listIndices())
    if (i.columns.length === 1 && ['source', 'part', 'doc_id'].includes(i.columns[0]!)) await table.dropIndex(i.name);
}
