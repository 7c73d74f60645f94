// Runs inside a worker thread: the only rerank code that imports @huggingface/transformers. Loads the
// cross-encoder (tokenizer + sequence classification model) once from its folder, remote models off,
// then scores one query against its documents per message: sigmoid of the first logit of each pair.
import { parentPort, workerData } from 'node:worker_threads';

export interface RerankWorkerInit {
  modelPath: string;
  threads: number;
}
export interface RerankWorkerRequest {
  id: number;
  query: string;
  documents: string[];
}
export type RerankWorkerReply =
  | { id: number; ok: true; scores: number[] }
  | { id: number; ok: false; code: 'config_error' | 'upstream_error'; message: string };

type Tokenizer = (texts: string[], options: Record<string, unknown>) => Record<string, unknown>;
type Model = (inputs: Record<string, unknown>) => Promise<{ logits: { data: ArrayLike<number>; dims: number[] } }>;

const init = workerData as RerankWorkerInit;
const port = parentPort;
if (!port) throw new Error('rerank-worker.ts runs as a worker thread');

async function load(): Promise<{ tokenizer: Tokenizer; model: Model }> {
  const { AutoTokenizer, AutoModelForSequenceClassification, env } = await import('@huggingface/transformers');
  env.allowRemoteModels = false; // never download: the folder is all there is
  env.allowLocalModels = true;
  env.useFSCache = false;
  const tokenizer = await AutoTokenizer.from_pretrained(init.modelPath, { local_files_only: true });
  const model = await AutoModelForSequenceClassification.from_pretrained(init.modelPath, {
    local_files_only: true,
    dtype: 'fp32',
    device: 'cpu',
    session_options: { intraOpNumThreads: init.threads, interOpNumThreads: 1 },
  });
  return { tokenizer: tokenizer as unknown as Tokenizer, model: model as unknown as Model };
}

const loading = load();
loading.catch(() => {}); // reported per request below

port.on('message', (request: RerankWorkerRequest) => {
  void answer(request).then((reply) => port.postMessage(reply));
});

async function answer(request: RerankWorkerRequest): Promise<RerankWorkerReply> {
  let loaded: Awaited<typeof loading>;
  try {
    loaded = await loading;
  } catch (error) {
    const message = `could not load the rerank model in ${init.modelPath}: ${(error as Error).message}`;
    return { id: request.id, ok: false, code: 'config_error', message };
  }
  try {
    const inputs = loaded.tokenizer(
      request.documents.map(() => request.query),
      { text_pair: request.documents, padding: true, truncation: true },
    );
    const { logits } = await loaded.model(inputs);
    const labels = logits.dims.at(-1) ?? 1;
    const scores = request.documents.map((_, i) => 1 / (1 + Math.exp(-Number(logits.data[i * labels]))));
    return { id: request.id, ok: true, scores };
  } catch (error) {
    const message = `the rerank model in ${init.modelPath} failed: ${(error as Error).message}`;
    return { id: request.id, ok: false, code: 'upstream_error', message };
  }
}
