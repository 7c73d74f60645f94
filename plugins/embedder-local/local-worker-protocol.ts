// The messages between the local embedder (main thread) and its worker thread (local-worker.ts).

export interface LocalWorkerRequest {
  id: number;
  texts: string[];
}

export type LocalWorkerReply =
  | { id: number; ok: true; rows: number[][] }
  | { id: number; ok: false; code: 'config_error' | 'internal'; message: string };
