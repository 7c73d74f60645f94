// The messages between the transformers embedder (main thread) and its worker thread.
import type { Dtype } from './transformers-options.ts';

export interface WorkerInit {
  modelPath: string;
  dtype: Dtype;
  threads: number;
  pooling: 'mean' | 'cls';
  normalize: boolean;
}

export interface WorkerRequest {
  id: number;
  texts: string[];
}

export type WorkerReply =
  | {
      id: number;
      ok: true;
      /** batch × dims, row-major */
      data: Float32Array;
      dims: number;
    }
  | { id: number; ok: false; code: 'config_error' | 'upstream_error'; message: string };
