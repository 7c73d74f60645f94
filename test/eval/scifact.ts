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

// The figures are kbctx eval's (plugins/eval/metrics.ts: trec_eval's nDCG, graded gains).
export { ndcgAt, recallAt } from '../../plugins/eval/metrics.ts';

/** Corpus id from a document's source_id (`<id>.md`). */
export const corpusId = (sourceId: string): string => sourceId.replace(/\.md$/, '');
