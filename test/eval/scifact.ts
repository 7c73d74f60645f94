// BEIR SciFact loader and metrics for the retrieval eval: corpus written as Markdown files and
// indexed through the real ingest path (filesystem connector → sync → SQLite), queries and labels.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const SCIFACT_DIR =
  process.env['KBCTX_SCIFACT_DIR'] ?? fileURLToPath(new URL('../../../shared/data/scifact/', import.meta.url));

export interface Query {
  id: string;
  text: string;
}

export function readJsonl<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}

/** Writes each abstract as `<id>.md` (`# title` + text) and returns the number written. */
export function writeCorpus(dir: string): number {
  mkdirSync(dir, { recursive: true });
  const docs = readJsonl<{ _id: string; title: string; text: string }>(path.join(SCIFACT_DIR, 'corpus.jsonl'));
  for (const d of docs) writeFileSync(path.join(dir, `${d._id}.md`), `# ${d.title}\n\n${d.text}\n`);
  return docs.length;
}

export function loadQueries(): Query[] {
  return readJsonl<{ _id: string; text: string }>(path.join(SCIFACT_DIR, 'train-queries.jsonl')).map((q) => ({
    id: q._id,
    text: q.text,
  }));
}

/** query id → (corpus id → relevance). */
export function loadQrels(): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  const lines = readFileSync(path.join(SCIFACT_DIR, 'train-qrels.tsv'), 'utf8').trim().split('\n').slice(1);
  for (const line of lines) {
    const [q, c, s] = line.split('\t');
    if (!q || !c) continue;
    if (!out.has(q)) out.set(q, new Map());
    out.get(q)!.set(c, Number(s));
  }
  return out;
}

/** nDCG@k with gain 2^rel − 1 and log2 discount; the ideal ranking comes from the labels. */
export function ndcgAt(k: number, ranked: readonly string[], rel: ReadonlyMap<string, number>): number {
  const dcg = ranked.slice(0, k).reduce((sum, id, i) => sum + (2 ** (rel.get(id) ?? 0) - 1) / Math.log2(i + 2), 0);
  const ideal = [...rel.values()]
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((sum, g, i) => sum + (2 ** g - 1) / Math.log2(i + 2), 0);
  return ideal === 0 ? 0 : dcg / ideal;
}

export function recallAt(k: number, ranked: readonly string[], rel: ReadonlyMap<string, number>): number {
  const relevant = [...rel.entries()].filter(([, g]) => g > 0).map(([id]) => id);
  if (relevant.length === 0) return 0;
  const top = new Set(ranked.slice(0, k));
  return relevant.filter((id) => top.has(id)).length / relevant.length;
}

/** Corpus id from a document's source_id (`<id>.md`). */
export const corpusId = (sourceId: string): string => sourceId.replace(/\.md$/, '');
