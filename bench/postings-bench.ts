// `npm run bench:postings`: the LanceDB store's keyword postings persisted in a Lance table
// (postings-table.ts, ADR 0234) against the in-memory KeywordIndex built at every open today. SciFact
// is replicated to BENCH_DOCS documents (51830: 55k chunks, as bench:scale) and chunked as sync does;
// both engines get the same chunks. Prints: the postings table's build (writes of 500 documents, as
// bulk mode commits, merged when due), then each engine in a fresh child process (so RSS is its own):
// open time (the in-memory one: building KeywordIndex from the analysed terms, as every open does
// today), keyword p50/p95 over the 809 train queries (document frequencies of every term, the common
// ones dropped as the store does, limit 12; two passes, the first starting with an empty term cache),
// RSS; single-document writes; and how many queries got the same hits from both engines.
// Env: BENCH_DOCS (default 51830); BENCH_DIR (kept: built there when it holds no table, else reused).
import '../registry/bundled.ts';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { analyzeQuery } from '../core/api/algorithms.ts';
import { toDocument } from '../core/app/sync.ts';
import { loadLance } from '../plugins/store-lancedb/lance-module.ts';
import { chunkTerms } from '../plugins/store-lancedb/model.ts';
import { KeywordIndex } from '../plugins/store-lancedb/keyword-index.ts';
import type { PostingsDoc } from '../plugins/store-lancedb/postings-changes.ts';
import { openPostingsTable, POSTINGS_TABLE, type PostingsTable } from '../plugins/store-lancedb/postings-table.ts';
import { toChunks } from '../test/helpers/chunks.ts';
import { loadQueries, readJsonl, SCIFACT_DIR } from '../test/eval/scifact.ts';
import { fmtMs, percentile } from './stats.ts';

const DOCS = Number(process.env['BENCH_DOCS'] ?? 51830);
const LIMIT = 12;
const COMMON_TERM_RATIO = 0.25;
const GROUP = 500;

/** The store's flow (model-queries.ts): every term's df, the common ones dropped while a rarer one is found. */
async function keyword(
  df: (terms: string[]) => Promise<Map<string, number>> | Map<string, number>,
  search: (terms: string[]) => Promise<{ hits: { group: number }[] }> | { hits: { group: number }[] },
  size: number,
  terms: string[],
): Promise<number[]> {
  const freqs = await df(terms);
  const rare = terms.filter((t) => (freqs.get(t) ?? 0) > 0 && freqs.get(t)! <= COMMON_TERM_RATIO * size);
  const chosen = rare.length > 0 ? [...rare, ...terms.filter((t) => (freqs.get(t) ?? 0) === 0)] : terms;
  return (await search(chosen)).hits.map((h) => h.group);
}

const queries = loadQueries().map((q) => [...new Set(analyzeQuery(q.text).map((t) => t.stem))]);
const mb = (bytes: number): string => `${Math.round(bytes / 1e6)} MB`;

/** SciFact replicated to DOCS documents, chunked as sync chunks them, each chunk analysed as the store does. */
function corpusDocs(): PostingsDoc[] {
  const corpus = readJsonl<{ _id: string; title: string; text: string }>(path.join(SCIFACT_DIR, 'corpus.jsonl'));
  const docs: PostingsDoc[] = [];
  for (let i = 0; i < DOCS; i++) {
    const d = corpus[i % corpus.length]!;
    const sourceId = `${d._id}-r${Math.floor(i / corpus.length)}.md`;
    const body = `# ${d.title}\n\n${d.text}\n`;
    const doc = toDocument({ sourceId, title: d.title, body }, `scifact:${sourceId}`, 'fs', 'fs');
    const chunks = toChunks(doc, { maxTokens: 700, overlapTokens: 80 });
    docs.push({ id: doc.id, chunks: chunks.map((c) => ({ id: c.id, terms: chunkTerms(doc.title, c) })) });
  }
  return docs;
}

async function openTable(dir: string): Promise<PostingsTable> {
  const lance = await loadLance();
  return openPostingsTable(await lance.lancedb.connect(dir, { readConsistencyInterval: 0 }), lance);
}

async function timed(run: (terms: string[]) => Promise<number[]>): Promise<{ line: string; groups: number[][] }> {
  const times: number[] = [];
  const groups: number[][] = [];
  for (const terms of queries) {
    const t = performance.now();
    groups.push(await run(terms));
    times.push(performance.now() - t);
  }
  return { line: `p50 ${fmtMs(percentile(times, 50))} ms p95 ${fmtMs(percentile(times, 95))} ms`, groups };
}

interface Served {
  loadMs: number;
  openMs: number;
  rssOpen: number;
  rss: number;
  passes: string[];
  groups: number[][];
}

/** A child process: opens one engine, answers the queries (twice), prints what it measured as JSON. */
async function serve(engine: string, dir: string): Promise<Served> {
  let started = performance.now();
  let loadMs = 0;
  let run: (terms: string[]) => Promise<number[]>;
  if (engine === 'table') {
    await loadLance(); // loaded for the main table anyway: timed apart
    loadMs = performance.now() - started;
    started = performance.now();
    const table = await openTable(dir);
    run = (terms) =>
      keyword(
        (t) => table.docFreq(t),
        (t) => table.search(t, LIMIT),
        table.size,
        terms,
      );
  } else {
    const docs = corpusDocs(); // the analysed terms, as the chunk rows store them (ADR 0228): not timed
    started = performance.now();
    const memory = new KeywordIndex();
    docs.forEach((d, group) => d.chunks.forEach((c) => memory.add(group, c.terms)));
    docs.length = 0;
    run = (terms) =>
      keyword(
        (t) => new Map(t.map((x) => [x, memory.docFreq(x)])),
        (t) => memory.search(t, LIMIT),
        memory.size,
        terms,
      );
  }
  const openMs = performance.now() - started;
  const rssOpen = process.memoryUsage().rss;
  const first = await timed(run);
  const second = await timed(run);
  return {
    loadMs,
    openMs,
    rssOpen,
    rss: process.memoryUsage().rss,
    passes: [first.line, second.line],
    groups: second.groups,
  };
}

function inChild(engine: string, dir: string): Served {
  const child = spawnSync(process.execPath, [process.argv[1]!, '--serve', engine, dir], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (child.status !== 0) throw new Error(child.stderr);
  return JSON.parse(child.stdout.trim().split('\n').pop()!) as Served;
}

async function build(dir: string, docs: readonly PostingsDoc[]): Promise<void> {
  const started = performance.now();
  const table = await openTable(dir);
  let merges = 0;
  let mergeMs = 0;
  const merge = async (): Promise<void> => {
    const t = performance.now();
    await table.merge();
    mergeMs += performance.now() - t;
    merges++;
  };
  for (let i = 0; i < docs.length; i += GROUP) {
    await table.apply({ put: docs.slice(i, i + GROUP), remove: [] }, i / GROUP + 1);
    if (table.wantsMerge()) await merge();
  }
  await merge();
  const ms = performance.now() - started;
  const commits = Math.ceil(docs.length / GROUP);
  console.log(
    `postings table: built in ${fmtMs(ms)} ms (${commits} commits; ${merges} merges took ${fmtMs(mergeMs)} ms)`,
  );
}

/** Single-document writes at this size (a watcher's syncs): one document put again per commit. */
async function smallWrites(dir: string, docs: readonly PostingsDoc[]): Promise<void> {
  const table = await openTable(dir);
  const writes: number[] = [];
  for (let i = 0; i < 20; i++) {
    const d = docs[(i * 997) % docs.length]!;
    const t = performance.now();
    const put = [{ id: d.id, chunks: d.chunks.map((c) => ({ ...c, id: `${c.id}:${i}` })) }];
    await table.apply({ put, remove: [] }, table.version + 1);
    writes.push(performance.now() - t);
  }
  const [p50, p95] = [percentile(writes, 50), percentile(writes, 95)];
  console.log(`postings table: one-document write p50 ${fmtMs(p50)} ms p95 ${fmtMs(p95)} ms (20 writes)`);
}

if (process.argv[2] === '--serve') {
  console.log(JSON.stringify(await serve(process.argv[3]!, process.argv[4]!)));
} else {
  const dir = process.env['BENCH_DIR'] ?? mkdtempSync(path.join(tmpdir(), 'kbctx-bench-postings-'));
  try {
    const docs = corpusDocs();
    const chunkCount = docs.reduce((n, d) => n + d.chunks.length, 0);
    console.log(
      `SciFact replicated: ${DOCS} documents, ${chunkCount} chunks; ${queries.length} queries, limit ${LIMIT}`,
    );
    console.log('machine: 2 cores shared with other sessions (figures are noisy; compare within this run)');
    if (!existsSync(path.join(dir, `${POSTINGS_TABLE}.lance`))) await build(dir, docs);
    const results = { memory: inChild('memory', dir), table: inChild('table', dir) };
    for (const [name, r] of Object.entries(results))
      console.log(
        `${name === 'memory' ? 'in-memory KeywordIndex' : 'postings table       '}: open ${fmtMs(r.openMs)} ms` +
          (r.loadMs > 0 ? ` (+ ${fmtMs(r.loadMs)} ms loading Lance)` : '') +
          `, RSS ${mb(r.rssOpen)}; keyword first pass ${r.passes[0]}; second ${r.passes[1]}; ` +
          `RSS after ${mb(r.rss)}`,
      );
    const same = results.table.groups.filter((g, i) => g.join() === results.memory.groups[i]!.join()).length;
    console.log(`same hits (documents, in order) from both engines: ${same} of ${queries.length} queries`);
    await smallWrites(dir, docs);
  } finally {
    if (process.env['BENCH_DIR'] === undefined) rmSync(dir, { recursive: true, force: true });
  }
}
