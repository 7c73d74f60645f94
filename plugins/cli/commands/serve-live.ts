// The live index as the server runs it, when the live-index plugin is loaded (the `kbctx.live-index`
// service): in a single process (or the cluster primary) the real one; in a cluster worker a proxy to
// the primary's. Surfaces get status, triggers and change events. Without the plugin: null.
import cluster from 'node:cluster';
import type { Kbctx } from '../../../core/api/host.ts';
import { liveIndexService, type LiveIndex } from '../../live-index/api.ts';
import { answerSyncCalls, broadcastIndexChanged, onRemoteIndexChanged, remoteSyncControl } from './serve-sync-ipc.ts';
import { serverConfigOf } from '../../transport-http/api.ts';

/** The banner's line when no plugin runs the live index (`"!live-index"` in plugins). */
export const NO_LIVE_INDEX =
  'live index: off (the live-index plugin is not loaded): no watching, no schedules, no /sync routes';

export async function startLiveIndex(
  kbctx: Kbctx,
  options: { watch: boolean | undefined; log: (line: string) => void; role: 'single' | 'primary' | 'worker' },
): Promise<LiveIndex | null> {
  if (!kbctx.kernel.services.has(liveIndexService)) return null;
  const service = kbctx.kernel.services.use(liveIndexService);
  if (options.role === 'worker') {
    const control = remoteSyncControl();
    return {
      control,
      statusJson: async () => service.statusToWire(await control.status()),
      onIndexChanged: onRemoteIndexChanged,
      attachWorker: () => {},
      close: () => Promise.resolve(),
    };
  }
  const watch = options.watch === false ? false : serverConfigOf(kbctx.config).watch;
  const live = await service.open({ watch, log: options.log });
  live.start().catch((error: unknown) => options.log(`live index: ${(error as Error).message}`));
  if (options.role === 'primary')
    live.onIndexChanged((connector) => broadcastIndexChanged(Object.values(cluster.workers ?? {}), connector));
  return {
    control: live,
    statusJson: async () => service.statusToWire(await live.status()),
    onIndexChanged: (listener) => void live.onIndexChanged(listener),
    attachWorker: (worker) => answerSyncCalls(worker, live),
    close: () => live.close(),
  };
}
