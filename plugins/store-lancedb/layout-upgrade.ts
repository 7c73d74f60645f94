// Brings a LanceDB table of an earlier layout to the current one at a writable open (ADR 0227, 0228):
// adds the chunks' `terms` column, and moves vectors of the first layout (one variable-length `vector`
// column) into `vector_<dims>` columns. Writes only through the store's commit (one at a time, locked).
import type { Table } from '@lancedb/lancedb';
import { vectorColumn, vectorColumnType } from './rows.ts';

type Commit = (write: (table: Table) => Promise<{ version: number }>) => Promise<void>;

/**
 * One commit per vector length, then one that clears `vector` (a crash in between: the next open does it
 * again; one update setting both loses the cast value in Lance 0.31). A table without such rows is left alone.
 * `addVectorColumn` adds a `vector_<dims>` column unless the table has it.
 */
export async function upgradeLayout(
  table: Table,
  commit: Commit,
  addVectorColumn: (dims: number) => Promise<void>,
): Promise<void> {
  if (!(await table.schema()).fields.some((f) => f.name === 'terms'))
    await commit((t) => t.addColumns([{ name: 'terms', valueSql: 'CAST(NULL AS STRING)' }]));
  const old = "kind = 'emb' AND vector IS NOT NULL";
  if ((await table.countRows(old)) === 0) return;
  const rows = await table.query().where(old).select(['dims']).toArrow();
  const dims = new Set<number>();
  for (let i = 0; i < rows.numRows; i++) dims.add(rows.getChild('dims')?.get(i) as number);
  for (const d of dims) {
    await addVectorColumn(d);
    await commit((t) =>
      t.update({
        where: `${old} AND dims = ${d}`,
        valuesSql: { [vectorColumn(d)]: `arrow_cast(vector, '${vectorColumnType(d)}')` },
      }),
    );
  }
  await commit((t) => t.update({ where: old, valuesSql: { vector: 'NULL' } }));
}
