// The messages between the local embedder (main thread) and its worker thread (local-worker.ts).

/**
 * Which runtime computes the model: ONNX Runtime when it loads, else TF.js (`auto`, the default); or one of them only.
 */
export type LocalRuntime = 'auto' | 'onnx' | 'tfjs';

export interface LocalWorkerRequest {
  id: number;
  texts: string[];
}

export type LocalWorkerReply =
  /** `vectors`: the rows one after another, `dims` floats each; its buffer is transferred, not copied (issue 31). */
  | { id: number; ok: true; vectors: Float32Array; dims: number }
  | { id: number; ok: false; code: 'config_error' | 'internal'; message: string };
