// The messages between the local embedder (main thread) and its worker thread (local-worker.ts).

/** Which runtime computes the model: ONNX Runtime when it loads, else TF.js (`auto`, the default); or one of them only. */
export type LocalRuntime = 'auto' | 'onnx' | 'tfjs';

export interface LocalWorkerRequest {
  id: number;
  texts: string[];
}

export type LocalWorkerReply =
  | { id: number; ok: true; rows: number[][] }
  | { id: number; ok: false; code: 'config_error' | 'internal'; message: string };
