// The LanceDB bulk writer's rate as the table grows (ADR 0252): opens the index in DIR, adds documents FROM..TO of
// bench:scale's corpus in one bulk group as a sync writes them (no tidy, no vectors), and prints documents/s over
// every window of EVERY documents, the open time and RSS. Run it from two checkouts on copies of one folder at the
// same time to compare writers under the same load.
// Usage: node bench/lance-bulk-rate.ts FROM TO DIR [EVERY]
import '../registry/bundled.ts';
import { indexFile, openBenchStore } from './bench-store.ts';
import { loadSciFact, scaleDocument } from './scale-corpus.ts';

const [, , fromArg, toArg, dir, everyArg] = process.argv;
const every = Number(everyArg ?? 10_000);
const corpus = loadSciFact();
const mb = (): string => `${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`;
const opened = performance.now();
const store = await openBenchStore('lancedb', indexFile('lancedb', dir!));
console.log(`open ${(performance.now() - opened).toFixed(0)} ms, RSS ${mb()}`);
await store.beginBulk();
let window = performance.now();
for (let i = Number(fromArg); i < Number(toArg); i++) {
  const { doc, chunks } = scaleDocument(corpus, i);
  await store.upsertDocument(doc, chunks, null);
  if ((i + 1) % every !== 0) continue;
  const now = performance.now();
  console.log(`${i + 1 - every}..${i + 1}: ${(every / ((now - window) / 1000)).toFixed(1)} documents/s, RSS ${mb()}`);
  window = now;
}
const ended = performance.now();
await store.endBulk();
await store.close();
console.log(`end of bulk and close ${(performance.now() - ended).toFixed(0)} ms`);
