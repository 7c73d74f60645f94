// `npm run bench:lance-keyword`: the LanceDB store's keyword search as a process sees it, for this
// checkout and, with BENCH_OLD=<another checkout's root>, that one too, each in a fresh child process
// on the same folder: open (openLanceStore), the first keyword search, then p50/p95 over the 809 SciFact
// train queries (limit 12) cold (the first pass, caches empty; the first query left out) and warm (a
// second pass). SciFact is replicated to BENCH_DOCS documents (default 5183) and written once by this
// checkout's store in bulk mode (the postings table with it); BENCH_DIR keeps the folder for reuse.
import '../registry/bundled.ts';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { analyzeQuery } from '../core/api/algorithms.ts';
import type { Store } from '../core/api/plugin.ts';
import { toDocument } from '../core/app/sync.ts';
import { openLanceStore } from '../plugins/store-lancedb/lance-store.ts';
import { toChunks } from '../test/helpers/chunks.ts';
import { loadQueries, readJsonl, SCIFACT_DIR } from '../test/eval/scifact.ts';
import { fmtMs, percentile } from './stats.ts';

const DOCS = Number(process.env['BENCH_DOCS'] ?? 5183);
const LIMIT = 12;

async function build(dir: string): Promise<number> {
  const corpus = readJsonl<{ _id: string; title: string; text: string }>(path.join(SCIFACT_DIR, 'corpus.jsonl'));
  const started = performance.now();
  const store = await openLanceStore(dir);
  await store.beginBulk();
  for (let i = 0; i < DOCS; i++) {
    const d = corpus[i % corpus.length]!;
    const sourceId = `${d._id}-r${Math.floor(i / corpus.length)}.md`;
    const doc = toDocument(
      { sourceId, title: d.title, body: `# ${d.title}\n\n${d.text}\n` },
      `scifact:${sourceId}`,
      'fs',
      'fs',
    );
    await store.upsertDocument(doc, toChunks(doc, { maxTokens: 700, overlapTokens: 80 }), null);
  }
  await store.endBulk();
  await store.close();
  return performance.now() - started;
}

/** A child: opens the store of checkout `root` on `dir`, answers the queries twice, prints JSON. */
async function child(root: string, dir: string): Promise<void> {
  const mod = (await import(path.join(root, 'plugins/store-lancedb/lance-store.ts'))) as {
    openLanceStore: (dir: string, access: string) => Promise<Store>;
  };
  let t = performance.now();
  const store = await mod.openLanceStore(dir, 'read');
  const openMs = performance.now() - t;
  const queries = loadQueries().map((q) => analyzeQuery(q.text));
  const pass = async (): Promise<number[]> => {
    const times: number[] = [];
    for (const terms of queries) {
      t = performance.now();
      await store.keywordSearch({ terms, limit: LIMIT, candidateK: LIMIT });
      times.push(performance.now() - t);
    }
    return times;
  };
  const cold = await pass();
  const warm = await pass();
  await store.close();
  const line = (xs: number[]): string => `p50 ${fmtMs(percentile(xs, 50))} ms p95 ${fmtMs(percentile(xs, 95))} ms`;
  const rss = Math.round(process.memoryUsage().rss / 1e6);
  console.log(
    JSON.stringify({ openMs, firstMs: cold[0], cold: line(cold.slice(1)), warm: line(warm), rss: `${rss} MB` }),
  );
}

async function main(): Promise<void> {
  if (process.argv[2] === 'child') return child(process.argv[3]!, process.argv[4]!);
  const keep = process.env['BENCH_DIR'];
  const dir = keep ?? path.join(mkdtempSync(path.join(tmpdir(), 'kbctx-lance-kw-')), 'kb.lance');
  try {
    if (!existsSync(dir)) console.log(`built ${DOCS} documents in ${fmtMs(await build(dir))} ms`);
    const roots = [...(process.env['BENCH_OLD'] ? [['old', process.env['BENCH_OLD']]] : []), ['new', process.cwd()]];
    for (const [name, root] of roots) {
      const run = spawnSync(process.execPath, [process.argv[1]!, 'child', path.resolve(root!), dir], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const out = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
      const ms = (x: unknown): string => fmtMs(x as number);
      console.log(
        `${name} (${root}): open ${ms(out['openMs'])} ms; first keyword search ${ms(out['firstMs'])} ms; ` +
          `cold ${out['cold']}; warm ${out['warm']}; RSS after ${out['rss']}`,
      );
    }
  } finally {
    if (!keep) rmSync(path.dirname(dir), { recursive: true, force: true });
  }
}

await main();
