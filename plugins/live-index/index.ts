// First-party plugin: the live index of `kbctx serve` (docs/sync.md, ADRs 0080–0081, 0127): connector
// schedules, file watchers for filesystem connectors, background embedding, and the `/sync` routes. The
// host opens it through the `kbctx.live-index` service, and it runs the connectors through the host's
// `kbctx.index` service (live-host.ts); without this plugin the server only serves.
import { definePlugin, DURATION_SCHEMA, hostService, indexService, type ConfigSection } from '../../core/api/plugin.ts';
import { serveService } from '../cli/api.ts';
import {
  getLiveIndexHooks,
  liveIndexService,
  type LiveIndexHost,
  type LiveIndexHooks,
  type SyncConfig,
  type SyncReport,
} from './api.ts';
import { getHttpHooks, serverConfigOf, tokenRequired } from '../transport-http/api.ts';

/**
 * `[sync]` (ADR 0250): the live index is its one reader. Declared here, not in a module of its own (start-up loads no
 * more modules: ADR 0130). A connector's own `sync_interval` is the host's key, on every connector table.
 */
const syncSection: ConfigSection<SyncConfig> = {
  schema: {
    type: 'object',
    properties: { interval: { ...DURATION_SCHEMA, default: 900 } },
    additionalProperties: false,
  },
  toConfig: (t) => ({ intervalSecs: t['interval'] as number }),
};

const plugin = definePlugin({
  name: 'live-index',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['route:GET /sync/status', 'route:POST /sync/:connector'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  configSections: { sync: syncSection },
  apply(kernel) {
    const hooks = getLiveIndexHooks(kernel);
    const { syncRun } = hooks;
    kernel.provide(liveIndexService, {
      open: async (options) => {
        const [{ LiveSync }, { watchFolderWithParcel }, { liveIndexHost }] = await Promise.all([
          import('./live-sync.ts'),
          import('./watch/parcel-watcher.ts'),
          import('./live-host.ts'),
        ]);
        const host = await liveIndexHost(kernel.use(indexService), kernel.use(hostService).config, options);
        // Taps read on each run (not isUsed(): the attribution's interceptor is on every hook); a failing tap is
        // logged.
        const onRun = (report: SyncReport): void => {
          if (syncRun.taps.length === 0) return;
          try {
            syncRun.call(report);
          } catch (error) {
            options.log(`warning: a syncRun tap failed: ${(error as Error).message}`);
          }
        };
        const embedding = host.embedding && observedEmbedding(host.embedding, hooks, options.log);
        return new LiveSync({ ...host, embedding, onRun }, watchFolderWithParcel);
      },
      statusToWire: async (list) => (await import('./status-wire.ts')).syncStatusToWire(list),
    });
    getHttpHooks(kernel).httpRoutes.tapPromise('live-index', async (surfaces) => {
      const { live, kbctx } = kernel.use(serveService);
      if (!live) return;
      const { syncSurface } = await import('./sync-surface.ts');
      // With a token every request passed the auth guard, so triggers may come from other hosts.
      surfaces.add(syncSurface(live.control, { tokenRequired: tokenRequired(serverConfigOf(kbctx.config)) }));
    });
  },
});

/** Background embedding that tells the `embedProgress` taps (read on each call) how far each pass is. */
function observedEmbedding(
  embedding: NonNullable<LiveIndexHost['embedding']>,
  { embedProgress }: LiveIndexHooks,
  log: (line: string) => void,
): NonNullable<LiveIndexHost['embedding']> {
  const tell = (model: string, chunks: number, waiting: number): void => {
    if (embedProgress.taps.length === 0) return;
    try {
      embedProgress.call({ model, chunks, waiting });
    } catch (error) {
      log(`warning: an embedProgress tap failed: ${(error as Error).message}`);
    }
  };
  return {
    embedder: () => embedding.embedder(),
    async embedPending(embedder) {
      let done = 0;
      let total = 0;
      const report = await embedding.embedPending(embedder, (progress) => {
        const chunks = progress.done - done;
        ({ done, total } = progress);
        tell(embedder.model, chunks, Math.max(0, total - done));
      });
      // Chunks another embedder leased are not ours to wait for: a finished pass leaves none.
      tell(embedder.model, 0, report.failure ? Math.max(0, total - done) : 0);
      return report;
    },
  };
}

export default plugin; // a named constant: see test/architecture.test.ts
