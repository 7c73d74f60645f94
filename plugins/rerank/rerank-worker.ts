// Runs inside a worker thread: the only rerank code that imports @huggingface/transformers. Loads the
// cross-encoder (tokenizer + sequence classification model) once from its folder, remote models off,
// then scores one batch per message: the (query, document) pairs of every search in it go through the
// tokenizer and the model in one run (sigmoid of the first logit of each pair), split back per search.
import { parentPort, workerData } from 'node:worker_threads';

export interface RerankWorkerInit {
  modelPath: string;
  threads: number;
}
/** One batch: the searches waiting when the worker became free (transformers-reranker.ts), in order. */
export interface RerankWorkerRequest {
  id: number;
  searches: { query: string; documents: string[] }[];
}
/** `scores[i]`: search i's documents' scores; `runs`: model runs of this worker so far, this one included. */
export type RerankWorkerReply =
  | { id: number; ok: true; scores: number[][]; runs: number }
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
let runs = 0;

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
    const queries = request.searches.flatMap((s) => s.documents.map(() => s.query));
    const documents = request.searches.flatMap((s) => s.documents);
    const inputs = loaded.tokenizer(queries, { text_pair: documents, padding: true, truncation: true });
    const { logits } = await loaded.model(inputs);
    runs++;
    const labels = logits.dims.at(-1) ?? 1;
    let pair = 0;
    const scores = request.searches.map((s) =>
      s.documents.map(() => 1 / (1 + Math.exp(-Number(logits.data[pair++ * labels])))),
    );
    return { id: request.id, ok: true, scores, runs };
  } catch (error) {
    const message = `the rerank model in ${init.modelPath} failed: ${(error as Error).message}`;
    return { id: request.id, ok: false, code: 'upstream_error', message };
  }
}
