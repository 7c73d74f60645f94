// `npm run bench:embedders`: embedding throughput (chunks/s) of the bundled local model (USE Lite) on
// each of its runtimes (ONNX Runtime, the default, and TF.js on WebAssembly; worker thread, ADR 0188)
// and the transformers provider on the tiny ONNX model the tests build (worker thread), in one run,
// rounds alternating, medians printed. BENCH_MODEL_PATH adds a real model
// folder (docs/embeddings.md). Model loading is outside the timing (one warm-up call each).
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { createLocalEmbedder } from '../plugins/embedder-local/create-local-embedder.ts';
import { createTransformersEmbedder } from '../plugins/embedder-transformers/create-transformers-embedder.ts';
import type { Embedder, EmbedderOptions } from '../core/index.ts';
import { TINY_TOPICS, writeTinyModel } from '../test/helpers/tiny-transformer-model.ts';
import { median } from './stats.ts';

const CHUNKS = Number(process.env['BENCH_CHUNKS'] ?? 512);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const BATCH = 32;

// ~120-word chunks mixing topic words and common words (the tiny model's vocabulary, and plain English).
const words = [
  ...TINY_TOPICS.flat(),
  ...'the of and a to in is for on with as that by this from be are at or it an'.split(' '),
  'replication',
  'checkpoint',
  'kingfisher',
];
const texts = Array.from({ length: CHUNKS }, (_, i) =>
  Array.from({ length: 120 }, (_, j) => words[(i * 31 + j * 7) % words.length]).join(' '),
);

const options = (
  provider: string,
  extra: Record<string, unknown>,
  env: Record<string, string> = {},
): EmbedderOptions => ({
  provider,
  model: null,
  dims: null,
  batchSize: BATCH,
  concurrency: 1,
  extra,
  baseDir: process.cwd(),
  env,
});

const dir = mkdtempSync(path.join(tmpdir(), 'kbctx-embed-bench-'));
await writeTinyModel(path.join(dir, 'tiny'));
const candidates: [string, () => Embedder][] = [
  [
    'local (USE Lite, ONNX Runtime, worker thread)',
    () => createLocalEmbedder(options('local', {}, { KBCTX_LOCAL_RUNTIME: 'onnx' })),
  ],
  [
    'local (USE Lite, TF.js/WASM, worker thread)',
    () => createLocalEmbedder(options('local', {}, { KBCTX_LOCAL_RUNTIME: 'tfjs' })),
  ],
  [
    'transformers (tiny ONNX model, worker)',
    () => createTransformersEmbedder(options('transformers', { model_path: path.join(dir, 'tiny') })),
  ],
];
const real = process.env['BENCH_MODEL_PATH'];
if (real)
  candidates.push([
    `transformers (${path.basename(real)})`,
    () => createTransformersEmbedder(options('transformers', { model_path: path.resolve(real) })),
  ]);

// One that cannot run here (an optional package not installed) is skipped with a line saying why.
const embedders: [string, Embedder][] = [];
for (const [label, create] of candidates) {
  try {
    const e = create();
    await e.embed(['warm up']);
    embedders.push([label, e]);
  } catch (error) {
    console.log(`${label.padEnd(46)} skipped: ${(error as Error).message.split('\n')[0]}`);
  }
}
const rates = new Map<string, number[]>(embedders.map(([label]) => [label, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [label, e] of embedders) {
    const started = performance.now();
    for (let i = 0; i < texts.length; i += BATCH) await e.embed(texts.slice(i, i + BATCH));
    rates.get(label)!.push(texts.length / ((performance.now() - started) / 1000));
  }
}
console.log(
  `${CHUNKS} chunks of ~120 words, batches of ${BATCH}, ${ROUNDS} ` +
    `rounds alternating, ${availableParallelism()} cores (shared)`,
);
for (const [label, r] of rates)
  console.log(
    `${label.padEnd(46)} median ${median(r).toFixed(1)} chunks/s  (rounds: ${r.map((x) => x.toFixed(1)).join(', ')})`,
  );
for (const [, e] of embedders) await (e as { close?: () => Promise<void> }).close?.();
rmSync(dir, { recursive: true, force: true });
