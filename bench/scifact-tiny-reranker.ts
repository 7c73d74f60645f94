// Builds the tests' tiny cross-encoder (test/helpers/tiny-cross-encoder.ts) for a BEIR corpus, for the
// `kbctx eval --compare` rerank rows in docs/search.md: the corpus's 30,000 most frequent words (a MiniLM's
// vocabulary size), each weighing idf / 100. It shows reranking's mechanics and cost, not a model's sense:
// a pair scores the sum of its words' weights, whatever the query. Usage: node bench/scifact-tiny-reranker.ts
// <corpus.jsonl> <out folder>.
import { readFileSync } from 'node:fs';
import { writeTinyCrossEncoder } from '../test/helpers/tiny-cross-encoder.ts';

const [corpus, out] = process.argv.slice(2);
if (!corpus || !out) throw new Error('usage: node bench/scifact-tiny-reranker.ts <corpus.jsonl> <out folder>');
const df = new Map<string, number>();
let docs = 0;
for (const line of readFileSync(corpus, 'utf8').split('\n')) {
  if (line.trim() === '') continue;
  const d = JSON.parse(line) as { title?: string; text?: string };
  docs++;
  // The tokenizer's split: lower-cased, words and runs of punctuation (the Whitespace pre-tokenizer).
  for (const w of new Set(`${d.title ?? ''} ${d.text ?? ''}`.toLowerCase().match(/\w+|[^\w\s]+/g) ?? []))
    df.set(w, (df.get(w) ?? 0) + 1);
}
const vocabulary = [...df].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 30_000);
const weights = Object.fromEntries(vocabulary.map(([w, n]) => [w, Math.log(docs / n) / 100]));
await writeTinyCrossEncoder(
  out,
  vocabulary.map(([w]) => w),
  weights,
);
console.log(`${out}: ${vocabulary.length} words from ${docs} documents`);
