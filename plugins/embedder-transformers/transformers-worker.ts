// Runs inside a worker thread: the only code that imports @huggingface/transformers. Loads the model
// once from its folder with remote models off (never any network), then answers one batch at a time.
// Vectors go back as one Float32Array (batch × dims), its buffer transferred, not copied.
import { parentPort, workerData } from 'node:worker_threads';
import type { WorkerInit, WorkerReply, WorkerRequest } from './worker-protocol.ts';

const init = workerData as WorkerInit;
const port = parentPort;
if (!port) throw new Error('transformers-worker.ts runs as a worker thread');

type Extractor = (
  texts: string[],
  options: { pooling: 'mean' | 'cls'; normalize: boolean },
) => Promise<{ data: Float32Array; dims: number[] }>;

async function loadExtractor(): Promise<Extractor> {
  const transformers = await import('@huggingface/transformers');
  const { env } = transformers;
  env.allowRemoteModels = false; // never download: the folder is all there is
  env.allowLocalModels = true;
  env.useFSCache = false; // would copy the files into a cache inside node_modules
  const pipe = await transformers.pipeline('feature-extraction', init.modelPath, {
    local_files_only: true,
    dtype: init.dtype,
    device: 'cpu',
    session_options: { intraOpNumThreads: init.threads, interOpNumThreads: 1 },
  });
  return pipe as unknown as Extractor;
}

const loading = loadExtractor();
loading.catch(() => {}); // reported per request below

port.on('message', (request: WorkerRequest) => {
  void answer(request).then((reply) => port.postMessage(reply, reply.ok ? [reply.data.buffer as ArrayBuffer] : []));
});

async function answer(request: WorkerRequest): Promise<WorkerReply> {
  let extractor: Extractor;
  try {
    extractor = await loading;
  } catch (error) {
    return {
      id: request.id,
      ok: false,
      code: 'config_error',
      message: `could not load the model in ${init.modelPath}: ${(error as Error).message}`,
    };
  }
  try {
    const output = await extractor(request.texts, { pooling: init.pooling, normalize: init.normalize });
    const data = Float32Array.from(output.data);
    return { id: request.id, ok: true, data, dims: output.dims.at(-1) ?? 0 };
  } catch (error) {
    return {
      id: request.id,
      ok: false,
      code: 'upstream_error',
      message: `the model in ${init.modelPath} failed: ${(error as Error).message}`,
    };
  }
}
