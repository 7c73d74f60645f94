// provider = "transformers": a cross-encoder ONNX model run in a worker thread (rerank-worker.ts), never
// on the event loop. The folder is `model_path`, or a hub id fetched into the model cache by the models
// plugin's service (`prepare`) on the first search. Requests queue in the worker one at a time.
import type { Worker } from 'node:worker_threads';
import { KbctxError } from '../../core/api/plugin.ts';
import type { Reranker } from './http-reranker.ts';
import type { RerankWorkerInit, RerankWorkerReply } from './rerank-worker.ts';

const WORKER_URL = new URL(`./rerank-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

interface Waiting {
  resolve(scores: number[]): void;
  reject(error: Error): void;
}

/** `folder`: the model folder, fetched when needed (called once; a failure is tried again on the next search). */
export function createTransformersReranker(folder: () => Promise<string>, threads = 1): Reranker {
  let worker: Worker | null = null;
  let preparing: Promise<string> | null = null;
  const waiting = new Map<number, Waiting>();
  let nextId = 1;

  const fail = (from: Worker, message: string): void => {
    if (worker !== from) return;
    worker = null;
    for (const w of waiting.values()) w.reject(new KbctxError('upstream_error', message));
    waiting.clear();
  };
  const start = (modelPath: string): Worker => {
    const { Worker } = process.getBuiltinModule('node:worker_threads');
    const init: RerankWorkerInit = { modelPath, threads };
    const w = new Worker(WORKER_URL, { workerData: init, stdout: false, stderr: false });
    w.on('message', (reply: RerankWorkerReply) => {
      const entry = waiting.get(reply.id);
      if (!entry) return;
      waiting.delete(reply.id);
      if (waiting.size === 0) w.unref(); // an idle worker never keeps the process alive
      if (reply.ok) entry.resolve(reply.scores);
      else entry.reject(new KbctxError(reply.code, reply.message));
    });
    w.on('error', (error) => fail(w, `the rerank worker failed: ${error.message}`));
    w.on('exit', (code) => fail(w, `the rerank worker stopped (exit code ${code})`));
    w.unref();
    return w;
  };

  return async (query, documents) => {
    preparing ??= folder().catch((error: unknown) => {
      preparing = null;
      throw error;
    });
    const modelPath = await preparing;
    worker ??= start(modelPath);
    const id = nextId++;
    const running = worker;
    return new Promise<number[]>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      running.ref();
      running.postMessage({ id, query, documents: [...documents] });
    });
  };
}
