// The live index as the server runs it: in a single process (or the cluster primary) the real one;
// in a cluster worker a proxy to the primary's. Surfaces get status, triggers and change events.
import cluster, { type Worker } from 'node:cluster';
import type { Kbctx } from '../../../core/app/compose.ts';
import type { SyncControl } from '../../live/live-sync.ts';
import { syncStatusToWire } from '../../live/status-wire.ts';
import { answerSyncCalls, broadcastIndexChanged, onRemoteIndexChanged, remoteSyncControl } from '../../../core/cli/commands/serve-sync-ipc.ts';

export interface LiveIndex {
  control: SyncControl;
  /** The status as its wire JSON (the MCP resource). */
  statusJson(): Promise<unknown>;
  onIndexChanged(listener: () => void): void;
  /** Primary only: serve this worker's status and trigger calls. */
  attachWorker(worker: Worker): void;
  close(): Promise<void>;
}

export async function startLiveIndex(kbctx: Kbctx, options: { watch: boolean | undefined; log: (line: string) => void; role: 'single' | 'primary' | 'worker' }): Promise<LiveIndex> {
  if (options.role === 'worker') {
    const control = remoteSyncControl();
    return {
      control,
      statusJson: async () => syncStatusToWire(await control.status()),
      onIndexChanged: onRemoteIndexChanged,
      attachWorker: () => {},
      close: () => Promise.resolve(),
    };
  }
  const watch = options.watch === false ? false : kbctx.config.server.watch;
  const live = await kbctx.openLiveSync({ watch, log: options.log });
  live.start().catch((error: unknown) => options.log(`live index: ${(error as Error).message}`));
  if (options.role === 'primary') live.onIndexChanged(() => broadcastIndexChanged(Object.values(cluster.workers ?? {})));
  return {
    control: live,
    statusJson: async () => syncStatusToWire(await live.status()),
    onIndexChanged: (listener) => void live.onIndexChanged(listener),
    attachWorker: (worker) => answerSyncCalls(worker, live),
    close: () => live.close(),
  };
}
