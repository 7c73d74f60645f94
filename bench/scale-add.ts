// bench:scale's writer (a child process): grows the index in DIR from FROM to TO documents as sync writes them
// (bulk), tidies it, gives every new chunk its random vector and refreshes the vector index; prints the times and
// its peak RSS as one JSON line. Streams: one document at a time, whatever TO is.
// Usage: node bench/scale-add.ts <sqlite|lancedb> FROM TO DIR
import '../registry/bundled.ts';
import { indexFile, openBenchStore, SPACE, storeKinds, writeRandomEmbeddings } from './bench-store.ts';
import { loadSciFact, scaleDocument } from './scale-corpus.ts';

const [, , kindArg, fromArg, toArg, dir] = process.argv;
const [kind] = storeKinds(kindArg);
const timed = async (run: () => Promise<unknown>): Promise<number> => {
  const started = performance.now();
  await run();
  return performance.now() - started;
};

const corpus = loadSciFact();
const store = await openBenchStore(kind!, indexFile(kind!, dir!));
const addMs = await timed(async () => {
  await store.beginBulk();
  for (let i = Number(fromArg); i < Number(toArg); i++) {
    const { doc, chunks } = scaleDocument(corpus, i);
    await store.upsertDocument(doc, chunks, null);
  }
  await store.endBulk();
});
const tidyMs = await timed(() => store.compact());
let vectors = 0;
const vectorMs = await timed(async () => {
  vectors = await writeRandomEmbeddings(store);
  await store.compact();
});
let index = '';
const vectorIndexMs = await timed(async () => {
  index = (await store.refreshVectorIndex(SPACE)).index;
});
await store.close();
// maxRSS is in kilobytes.
const peakRssMb = process.resourceUsage().maxRSS / 1e3;
console.log(JSON.stringify({ addMs, tidyMs, vectors, vectorMs, vectorIndexMs, index, peakRssMb }));
