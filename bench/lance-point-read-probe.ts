// `node bench/lance-point-read-probe.ts <folder holding kb.lance>`: what one Lance point read costs in this
// process (ADR 0247), the floor of a cold keyword search. Per method, each read asks for rows not read before
// (a term's `term` and `delta` rows, a document's `doc` row of the postings, a chunk row of the main table),
// methods interleaved so the machine's load falls on all alike: a filtered query through the column's BTREE,
// the same with `.withRowId()`, `takeRowIds` and `takeOffsets` (ids and offsets from one scan at the start,
// timed too). Prints medians and p95 per method.
import path from 'node:path';
import type { Table } from '@lancedb/lancedb';
import { loadLance } from '../plugins/store-lancedb/lance-module.ts';
import { sqlList } from '../plugins/store-lancedb/rows.ts';
import { fmtMs, percentile } from './stats.ts';

const dir = path.resolve(process.argv[2] ?? '', 'kb.lance');
const SAMPLES = Number(process.env['PROBE_SAMPLES'] ?? 60);
const lance = await loadLance();
const db = await lance.lancedb.connect(dir);
const postings = await db.openTable('kb_postings');
const main = await db.openTable('kb');

/** Every row's key column, row id and offset (its position in a plain scan), in one read. */
async function locate(
  table: Table,
  column: string,
  kinds: readonly string[],
): Promise<Map<string, { id: bigint; at: number }[]>> {
  const t = performance.now();
  const rows = await table.query().select([column, 'kind']).withRowId().toArray();
  const out = new Map<string, { id: bigint; at: number }[]>();
  rows.forEach((r, at) => {
    if (!kinds.includes(r['kind'] as string)) return;
    const key = String(r[column]);
    const list = out.get(key) ?? [];
    list.push({ id: r['_rowid'] as bigint, at });
    out.set(key, list);
  });
  console.log(`scan of ${rows.length} rows (${column}, kind, row id): ${fmtMs(performance.now() - t)} ms`);
  return out;
}

type Method = (keys: string[], where: Map<string, { id: bigint; at: number }[]>) => Promise<number>;

function methods(table: Table, filter: (keys: string[]) => string, columns: string[]): [string, Method][] {
  return [
    ['filtered (BTREE)', async (keys) => (await table.query().where(filter(keys)).select(columns).toArray()).length],
    [
      'filtered + withRowId',
      async (keys) => (await table.query().where(filter(keys)).select(columns).withRowId().toArray()).length,
    ],
    [
      'takeRowIds',
      async (keys, at) => {
        const ids = keys.flatMap((k) => at.get(k)!.map((x) => x.id));
        return (await table.takeRowIds(ids).select(columns).toArray()).length;
      },
    ],
    [
      'takeOffsets',
      async (keys, at) => {
        const offsets = keys.flatMap((k) => at.get(k)!.map((x) => x.at));
        return (await table.takeOffsets(offsets).select(columns).toArray()).length;
      },
    ],
  ];
}

async function probe(
  label: string,
  table: Table,
  at: Map<string, { id: bigint; at: number }[]>,
  filter: (keys: string[]) => string,
  columns: string[],
  perRead: number,
): Promise<void> {
  const keys = [...at.keys()].sort(() => Math.random() - 0.5);
  const ms = methods(table, filter, columns);
  const times = ms.map(() => [] as number[]);
  const rows = ms.map(() => 0);
  let next = 0;
  for (let s = 0; s < SAMPLES; s++)
    for (let m = 0; m < ms.length; m++) {
      const batch = keys.slice(next, next + perRead);
      next += perRead;
      const t = performance.now();
      rows[m]! += await ms[m]![1](batch, at);
      times[m]!.push(performance.now() - t);
    }
  for (let m = 0; m < ms.length; m++)
    console.log(
      `${label}, ${perRead} key(s) a read, ${ms[m]![0]}: p50 ${fmtMs(percentile(times[m]!, 50))} ms ` +
        `p95 ${fmtMs(percentile(times[m]!, 95))} ms (${SAMPLES} reads, ${rows[m]} rows)`,
    );
}

const terms = await locate(postings, 'term', ['term', 'delta']);
const termFilter = (keys: string[]): string => `kind IN ('term', 'delta') AND term IN ${sqlList(keys)}`;
await probe('postings term rows', postings, terms, termFilter, ['kind', 'term', 'data'], 1);
await probe('postings term rows', postings, terms, termFilter, ['kind', 'term', 'data'], 6);
const groups = await locate(postings, 'grp', ['doc']);
const groupFilter = (keys: string[]): string => `kind = 'doc' AND grp IN (${keys.join(', ')})`;
await probe('postings doc rows', postings, groups, groupFilter, ['doc_id', 'grp', 'info'], 12);
const chunks = await locate(main, 'row_key', ['chunk']);
const docOf = new Map<string, string>();
for (const r of await main.query().where(`kind = 'chunk'`).select(['row_key', 'doc_id']).toArray())
  docOf.set(r['row_key'] as string, r['doc_id'] as string);
const chunkFilter = (keys: string[]): string =>
  `doc_id IN ${sqlList(keys.map((k) => docOf.get(k)!))} AND row_key IN ${sqlList(keys)}`;
await probe('main chunk rows', main, chunks, chunkFilter, ['row_key', 'text', 'doc_id'], 12);
