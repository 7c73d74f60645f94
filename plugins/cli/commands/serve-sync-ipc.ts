// With `--workers N` only the cluster primary runs the live index (one scheduler, one writer); workers
// reach it over the cluster IPC channel: status and triggers go up, "index changed" comes down.
import type { Worker } from 'node:cluster';
import { KbctxError } from '../../../core/api/plugin.ts';
import type { ErrorCode } from '../../../core/api/plugin.ts';
import type { ConnectorStatus, SyncControl } from '../../live-index/api.ts';

type CallBody = { op: 'status' } | { op: 'trigger'; connector: string };
type Call = CallBody & { type: 'kbctx-sync-call'; id: number };
type Reply = { type: 'kbctx-sync-reply'; id: number; value?: unknown; error?: { code: string; message: string } };
const CHANGED = 'kbctx-index-changed';

/** Primary side: answers one worker's calls with the live index. */
export function answerSyncCalls(worker: Worker, control: SyncControl): void {
  worker.on('message', (message: Call) => {
    if (message?.type !== 'kbctx-sync-call') return;
    const value =
      message.op === 'status' ? control.status() : Promise.resolve().then(() => control.trigger(message.connector));
    value.then(
      (v) =>
        worker.isConnected() && worker.send({ type: 'kbctx-sync-reply', id: message.id, value: v } satisfies Reply),
      (error: unknown) => {
        const code = error instanceof KbctxError ? error.code : 'internal';
        if (worker.isConnected())
          worker.send({
            type: 'kbctx-sync-reply',
            id: message.id,
            error: { code, message: (error as Error).message },
          } satisfies Reply);
      },
    );
  });
}

/** Primary side: tells every worker the index changed (they notify their MCP clients). */
export function broadcastIndexChanged(workers: Iterable<Worker | undefined>, connector: string): void {
  for (const w of workers) if (w?.isConnected()) w.send({ type: CHANGED, connector });
}

/** Worker side: the live index of the primary. */
export function remoteSyncControl(): SyncControl {
  let next = 1;
  const waiting = new Map<number, (reply: Reply) => void>();
  process.on('message', (message: Reply) => {
    if (message?.type !== 'kbctx-sync-reply') return;
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  });
  const call = <T>(body: CallBody): Promise<T> =>
    new Promise((resolve, reject) => {
      const id = next++;
      waiting.set(id, (reply) =>
        reply.error
          ? reject(new KbctxError(reply.error.code as ErrorCode, reply.error.message))
          : resolve(reply.value as T),
      );
      process.send?.({ type: 'kbctx-sync-call', id, ...body });
    });
  return {
    status: () => call<ConnectorStatus[]>({ op: 'status' }),
    trigger: (connector) => call<ConnectorStatus>({ op: 'trigger', connector }),
  };
}

/** Worker side: runs `listener` whenever the primary reports an index change. */
export function onRemoteIndexChanged(listener: (connector: string) => void): void {
  process.on('message', (message: { type?: string; connector?: unknown }) => {
    if (message?.type === CHANGED) listener(String(message.connector));
  });
}
