// `node bench/lance-open-probe.ts <folder>`: where a LanceDB store's open goes, step by step, in a fresh
// process (ADR 0243): importing the Lance module, opening the table place, the postings table, then each
// query the model load makes (Arrow read alone) and the whole model load, and RSS after open. The last
// line is a plain `openLanceStore` on the same folder (the caches warm by then: compare steps, not totals).
import path from 'node:path';
import { loadLance } from '../plugins/store-lancedb/lance-module.ts';
import { openTablePlace } from '../plugins/store-lancedb/table-place.ts';
import { openLanceStore } from '../plugins/store-lancedb/lance-store.ts';
import { fmtMs } from './stats.ts';

const dir = path.resolve(process.argv[2] ?? '');
const steps: [string, number][] = [];
async function step<T>(name: string, run: () => Promise<T>): Promise<T> {
  const t = performance.now();
  const out = await run();
  steps.push([name, performance.now() - t]);
  return out;
}

const started = performance.now();
const lance = await step('import @lancedb/lancedb + apache-arrow', loadLance);
const place = await step('openTablePlace', () => openTablePlace(lance, dir, 'read', {}));
const postings = await step('open kb_postings', () => place.db.openTable('kb_postings'));
await step("kb_postings meta row by row_key = 'm:' (the store's read)", () =>
  postings.query().where("row_key = 'm:'").select(['info']).toArray(),
);
await step('kb_postings meta row by grp = -1', () => postings.query().where('grp = -1').select(['info']).toArray());
const postingsRows = await step('kb_postings countRows', () => postings.countRows());
steps.at(-1)![0] += `: ${postingsRows} rows, ${(await postings.stats()).fragmentStats.numFragments} fragments`;
postings.close();
const mainStats = await step('kb stats', () => place.table.stats());
steps.at(-1)![0] +=
  `: ${mainStats.fragmentStats.numFragments} fragments, ${(await place.table.listVersions()).length} versions`;
const reads: [string, string[]][] = [
  // What model-load.ts reads (chunk and doc rows), then what it read before ADR 0243 (heads, emb rows).
  ["kind = 'chunk'", ['row_key', 'doc_id', 'seq', 'chunk_index', 'content_hash', 'metadata']],
  ["kind = 'doc'", ['doc_id', 'seq', 'connector', 'content_hash', 'fingerprint']],
  ["kind = 'doc'", ['doc_id', 'source', 'source_id', 'source_url', 'title', 'updated_at']],
  ["kind = 'emb'", ['row_key', 'model', 'dims', 'content_hash']],
];
for (const [where, columns] of reads) {
  const read = await step(`read ${where} (${columns.length} columns, Arrow only)`, () =>
    place.table.query().where(where).select(columns).toArrow(),
  );
  steps.at(-1)![0] += `: ${read.numRows} rows`;
}
await step("countRows kind = 'chunk'", () => place.table.countRows("kind = 'chunk'"));
await step('countRows (all)', () => place.table.countRows());
const probed = performance.now() - started;
place.table.close();
place.db.close();
const t = performance.now();
const store = await openLanceStore(dir, 'read');
const openMs = performance.now() - t;
const rss = Math.round(process.memoryUsage().rss / 1e6);
await store.close();
for (const [name, ms] of steps) console.log(`${fmtMs(ms).padStart(9)} ms  ${name}`);
console.log(`${fmtMs(probed).padStart(9)} ms  probe total`);
console.log(`${fmtMs(openMs).padStart(9)} ms  openLanceStore afterwards (module loaded), RSS ${rss} MB`);
