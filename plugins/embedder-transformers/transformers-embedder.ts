// The `transformers` embedder: an ONNX model from a local folder, run by @huggingface/transformers in
// a worker thread so the server's event loop keeps answering while it embeds. The thread starts on
// the first embed() and holds the process open only while a batch is in flight.
import type { Worker } from 'node:worker_threads';
import { KbctxError, type Embedder } from '../../core/api/plugin.ts';
import { toUnitVectors } from '../../core/api/algorithms.ts';
import type { WorkerInit, WorkerReply } from './worker-protocol.ts';

// Beside this file: the .ts worker when run from the sources, the .js one in the built package.
const WORKER_URL = new URL(`./transformers-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

export interface TransformersEmbedderOptions extends WorkerInit {
  model: string;
  dims: number | null;
  batchSize: number;
  concurrency: number;
  queryPrefix: string;
  documentPrefix: string;
  /** A hub model not cached yet: fetches it (the models service) and returns its folder, before the worker starts. */
  prepare?: (() => Promise<string>) | undefined;
}

interface Waiting {
  resolve(vectors: Float32Array[]): void;
  reject(error: Error): void;
  count: number;
}

export class TransformersEmbedder implements Embedder {
  readonly model: string;
  readonly dims: number | null;
  readonly batchSize: number;
  readonly concurrency: number;
  private readonly options: TransformersEmbedderOptions;
  private worker: Worker | null = null;
  private preparing: Promise<string> | null = null;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;

  constructor(options: TransformersEmbedderOptions) {
    this.options = options;
    this.model = options.model;
    this.dims = options.dims;
    this.batchSize = options.batchSize;
    this.concurrency = options.concurrency;
  }

  /** Documents: `document_prefix` + text (e5 `passage: `, nomic `search_document: `). */
  embed(texts: readonly string[]): Promise<Float32Array[]> {
    return this.run(texts.map((t) => this.options.documentPrefix + t));
  }

  /** A search query: `query_prefix` + text (e5 `query: `, bge's instruction, nomic `search_query: `). */
  async embedQuery(text: string): Promise<Float32Array> {
    const [vector] = await this.run([this.options.queryPrefix + text]);
    return vector as Float32Array;
  }

  /** Stops the worker thread (pending batches fail). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }

  private async run(texts: string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    if (this.options.prepare && this.options.modelPath === '') await this.prepared(this.options.prepare);
    const worker = this.ensureWorker();
    const id = this.nextId++;
    return new Promise<Float32Array[]>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject, count: texts.length });
      worker.ref();
      worker.postMessage({ id, texts });
    });
  }

  /** One fetch for every batch waiting on it; a failed fetch is tried again by the next batch. */
  private async prepared(prepare: () => Promise<string>): Promise<void> {
    this.preparing ??= prepare().catch((error: unknown) => {
      this.preparing = null;
      throw error;
    });
    const folder = await this.preparing;
    const { checkModelFolder } = await import('./model-folder.ts');
    checkModelFolder(folder, this.options.dtype);
    this.options.modelPath = folder;
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const { modelPath, dtype, threads, pooling, normalize } = this.options;
    const init: WorkerInit = { modelPath, dtype, threads, pooling, normalize };
    const { Worker } = process.getBuiltinModule('node:worker_threads'); // loaded on the first embed, not at start-up
    const worker = new Worker(WORKER_URL, { workerData: init, stdout: false, stderr: false });
    worker.on('message', (reply: WorkerReply) => this.settle(reply));
    worker.on('error', (error) => this.fail(worker, `the transformers worker failed: ${error.message}`));
    worker.on('exit', (code) => this.fail(worker, `the transformers worker stopped (exit code ${code})`));
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private settle(reply: WorkerReply): void {
    const waiting = this.waiting.get(reply.id);
    if (!waiting) return;
    this.waiting.delete(reply.id);
    if (this.waiting.size === 0) this.worker?.unref();
    if (!reply.ok) {
      waiting.reject(new KbctxError(reply.code, reply.message));
      return;
    }
    const rows: number[][] = [];
    for (let i = 0; i < waiting.count; i++)
      rows.push(Array.from(reply.data.subarray(i * reply.dims, (i + 1) * reply.dims)));
    try {
      waiting.resolve(toUnitVectors(rows, waiting.count, this.dims, this.model));
    } catch (error) {
      waiting.reject(error as Error);
    }
  }

  private fail(worker: Worker, message: string): void {
    if (this.worker !== worker) return;
    this.worker = null;
    for (const w of this.waiting.values()) w.reject(new KbctxError('upstream_error', message));
    this.waiting.clear();
  }
}
