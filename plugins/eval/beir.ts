// Reads a BEIR-format data set for `kbctx eval`: `corpus.jsonl` ({_id, title, text}), `queries.jsonl`
// ({_id, text}) and `qrels/<split>.tsv` (`query-id  corpus-id  score`, a header line allowed). Also read:
// `<split>-queries.jsonl` / `<split>-qrels.tsv` beside the corpus, and TREC qrels lines (`qid 0 docid rel`).
// A file that is missing or malformed is a bad_request naming it and the line.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { badRequest } from '../../core/api/plugin.ts';

export interface BeirDoc {
  id: string;
  title: string;
  text: string;
}

export interface BeirQuery {
  id: string;
  text: string;
}

/** Query id → (document id → grade). */
export type Qrels = Map<string, Map<string, number>>;

function readText(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    throw badRequest(`${what} ${file} cannot be read`);
  }
}

function readJsonl(file: string, what: string): Record<string, unknown>[] {
  return readText(file, what)
    .split('\n')
    .map((line, i) => [line, i + 1] as const)
    .filter(([line]) => line.trim() !== '')
    .map(([line, n]) => {
      try {
        const row = JSON.parse(line) as unknown;
        if (typeof row === 'object' && row !== null && typeof (row as { _id?: unknown })._id === 'string')
          return row as Record<string, unknown>;
      } catch {
        // reported below
      }
      throw badRequest(`${file} line ${n}: expected a JSON object with a string "_id"`);
    });
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export function loadCorpus(file: string): BeirDoc[] {
  return readJsonl(file, 'corpus').map((r) => ({ id: str(r['_id']), title: str(r['title']), text: str(r['text']) }));
}

export function loadQueries(file: string): BeirQuery[] {
  return readJsonl(file, 'queries file').map((r) => ({ id: str(r['_id']), text: str(r['text']) }));
}

export function loadQrels(file: string): Qrels {
  const out: Qrels = new Map();
  readText(file, 'qrels file')
    .split('\n')
    .forEach((line, i) => {
      if (line.trim() === '') return;
      const cols = line.trim().split(/\s+/);
      const [q, doc, grade] = cols.length === 4 ? [cols[0], cols[2], cols[3]] : cols;
      if (cols.length < 3 || cols.length > 4 || !q || !doc || !/^-?\d+(\.\d+)?$/.test(grade ?? '')) {
        if (i === 0) return; // the header line (`query-id corpus-id score`)
        throw badRequest(`${file} line ${i + 1}: expected 'query-id corpus-id score' or 'qid 0 docid rel'`);
      }
      if (!out.has(q)) out.set(q, new Map());
      out.get(q)!.set(doc, Number(grade));
    });
  return out;
}

/** The files of `split` in a BEIR folder (the first of each that exists). */
export function beirFiles(folder: string, split: string): { corpus: string; queries: string; qrels: string } {
  const first = (what: string, ...names: string[]): string => {
    const found = names.map((n) => path.join(folder, n)).find((f) => existsSync(f));
    if (!found) throw badRequest(`${folder} has no ${what} (looked for ${names.join(', ')})`);
    return found;
  };
  return {
    corpus: first('corpus', 'corpus.jsonl'),
    queries: first('queries', 'queries.jsonl', `${split}-queries.jsonl`),
    qrels: first(`qrels for split '${split}'`, `qrels/${split}.tsv`, `${split}-qrels.tsv`),
  };
}
