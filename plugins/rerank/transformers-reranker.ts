// provider = "transformers": a cross-encoder ONNX model run in a worker thread (rerank-worker.ts), never
// on the event loop. The folder is `model_path`, or a hub id fetched into the model cache by the models
// plugin's service on the first search. Micro-batching (ADR 0198):
//   1. A search's (query, document) pairs join a queue; when the worker is free the queue is sent at once.
//   2. While the worker runs a batch, searches keep queueing; when it answers, the next batch takes the
//      queued searches in arrival order up to MAX_BATCH_PAIRS pairs (a search is never split: one larger
//      than the cap goes alone), and the worker runs them as one model call.
//   3. Each search gets its own scores back; a batch that fails (or a worker that stops) rejects each of
//      its searches, which then fail open one by one (rerank-hits.ts).
import type { Worker } from 'node:worker_threads';
import { KbctxError } from '../../core/api/plugin.ts';
import type { Reranker } from './http-reranker.ts';
import type { RerankWorkerInit, RerankWorkerReply, RerankWorkerRequest } from './rerank-worker.ts';

const WORKER_URL = new URL(`./rerank-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

/**
 * The most (query, document) pairs in one model run: four searches of the default 30 candidates, plus room. Larger
 * batches add padding and memory (every pair is padded to the batch's longest) for little gain on 2–4 cores.
 */
export const MAX_BATCH_PAIRS = 128;

/** What the worker has done (a test and `npm run bench:rerank` read it). */
export interface RerankStats {
  /** Searches scored (calls of the reranker that reached the worker). */
  searches: number;
  /** Model runs, as the worker counts them: fewer than `searches` when concurrent searches shared a run. */
  modelRuns: number;
  /** The most searches, and the most pairs, one run held. */
  largestBatch: number;
  largestBatchPairs: number;
}

export type TransformersReranker = Reranker & { stats(): RerankStats };

interface Waiting {
  query: string;
  documents: string[];
  resolve(scores: number[]): void;
  reject(error: Error): void;
}

/** `folder`: the model folder, fetched when needed (called once; a failure is tried again on the next search). */
export function createTransformersReranker(
  folder: () => Promise<string>,
  threads = 1,
  maxBatchPairs = MAX_BATCH_PAIRS,
): TransformersReranker {
  let worker: Worker | null = null;
  let preparing: Promise<string> | null = null;
  const queue: Waiting[] = [];
  let running: { id: number; batch: Waiting[] } | null = null;
  let nextId = 1;
  const stats: RerankStats = { searches: 0, modelRuns: 0, largestBatch: 0, largestBatchPairs: 0 };

  const fail = (from: Worker, message: string): void => {
    if (worker !== from) return;
    worker = null;
    const failed = [...(running?.batch ?? []), ...queue.splice(0)];
    running = null;
    for (const w of failed) w.reject(new KbctxError('upstream_error', message));
  };
  const dispatch = (): void => {
    if (running || queue.length === 0 || !worker) {
      if (!running && queue.length === 0) worker?.unref(); // an idle worker never keeps the process alive
      return;
    }
    let pairs = queue[0]!.documents.length;
    let take = 1;
    while (take < queue.length && pairs + queue[take]!.documents.length <= maxBatchPairs)
      pairs += queue[take++]!.documents.length;
    const batch = queue.splice(0, take);
    running = { id: nextId++, batch };
    stats.largestBatch = Math.max(stats.largestBatch, batch.length);
    stats.largestBatchPairs = Math.max(stats.largestBatchPairs, pairs);
    const request: RerankWorkerRequest = {
      id: running.id,
      searches: batch.map((w) => ({ query: w.query, documents: w.documents })),
    };
    worker.ref();
    worker.postMessage(request);
  };
  const start = (modelPath: string): Worker => {
    const { Worker } = process.getBuiltinModule('node:worker_threads');
    const init: RerankWorkerInit = { modelPath, threads };
    const w = new Worker(WORKER_URL, { workerData: init, stdout: false, stderr: false });
    const runsBefore = stats.modelRuns; // a restarted worker counts from 0 again
    w.on('message', (reply: RerankWorkerReply) => {
      if (worker !== w || running?.id !== reply.id) return;
      const { batch } = running;
      running = null;
      if (reply.ok) {
        stats.modelRuns = runsBefore + reply.runs;
        batch.forEach((entry, i) => entry.resolve(reply.scores[i] ?? []));
      } else for (const entry of batch) entry.reject(new KbctxError(reply.code, reply.message));
      dispatch();
    });
    w.on('error', (error) => fail(w, `the rerank worker failed: ${error.message}`));
    w.on('exit', (code) => fail(w, `the rerank worker stopped (exit code ${code})`));
    w.unref();
    return w;
  };

  const rerank: Reranker = async (query, documents) => {
    preparing ??= folder().catch((error: unknown) => {
      preparing = null;
      throw error;
    });
    const modelPath = await preparing;
    worker ??= start(modelPath);
    stats.searches++;
    return new Promise<number[]>((resolve, reject) => {
      queue.push({ query, documents: [...documents], resolve, reject });
      dispatch();
    });
  };
  return Object.assign(rerank, { stats: (): RerankStats => ({ ...stats }) });
}
