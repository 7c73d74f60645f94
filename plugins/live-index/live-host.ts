// What the live index runs, built from the host's `kbctx.index` service: every configured connector
// (with its watch target when watching), its schedule, one incremental sync under the server's lock,
// and background embedding.
import {
  configuredConnectors,
  embedPending,
  failedReport,
  syncConnectors,
  type Config,
  type IndexHost,
  type SyncDeps,
} from '../../core/index.ts';
import { syncIntervalOf, type LiveIndexHost } from './api.ts';

export async function liveIndexHost(
  index: IndexHost,
  config: Config,
  { watch, log }: { watch: boolean | 'poll'; log: (line: string) => void },
): Promise<LiveIndexHost> {
  const connectors = await Promise.all(
    configuredConnectors(config).map(async (ref) => {
      const connector = await index.createConnector(ref);
      const target = watch ? connector.watchTarget?.() : undefined;
      return {
        connector,
        intervalSecs: syncIntervalOf(config, ref.label),
        watch: target ? { ...target, poll: watch === 'poll' } : null,
      };
    }),
  );
  // Embedding follows on its own (embed-follower.ts), not after each connector.
  const syncDeps: SyncDeps = {
    ...index.syncDeps(),
    afterConnector: undefined,
    lock: (label) => index.locks.acquire(label, 'the server (`kbctx serve`)'),
  };
  return {
    connectors,
    sync: (connector, { paths, skipIfSyncedWithinMs }) =>
      syncConnectors(syncDeps, [connector], { full: false, paths, skipIfSyncedWithinMs }).then(
        (reports) => reports[0]!,
        (error: unknown) => failedReport(connector.label, error),
      ),
    failedReport,
    embedding:
      config.embedding.provider === 'disabled'
        ? null
        : {
            embedder: () => index.embedder(),
            embedPending: (embedder, onProgress) => embedPending({ store: index.store, embedder, onProgress }),
          },
    log,
  };
}
