// First-party plugin: GET /metrics in the Prometheus text format (prom-client) on the HTTP server of
// `kbctx serve mcp`. It only observes, through others' hooks (transport-http's `httpRoutes` and
// `onResponse`, the kernel's `toolCall`/`toolResult`/`rank`, live-index's `syncRun`/`embedProgress`,
// mcp-http's `exchangeOpened`/`exchangeClosed`, the cli's `clusterPrimary`/`clusterWorker`) and reads the
// index at scrape time; no plugin depends on it. prom-client and the recorder load when a listener starts
// (or a `[server] workers` primary forks), never on `kbctx search`; dropped (`"!metrics"`), nothing is tapped.
import { definePlugin, indexService, type PluginKernel } from '../../core/api/plugin.ts';
import { getHttpHooks, serverConfigOf } from '../transport-http/api.ts';
import { getLiveIndexHooks } from '../live-index/api.ts';
import { getMcpHttpHooks } from '../mcp-http/api.ts';
import { getCliHooks, serveService, type ClusterWorker } from '../cli/api.ts';
import type * as RecorderModule from './recorder.ts';

/** The cluster topics: a worker asks the primary for the whole text; the primary gathers each worker's snapshot. */
const SCRAPE = 'metrics:scrape';
const SNAPSHOT = 'metrics:snapshot';

const plugin = definePlugin({
  name: 'metrics',
  version: '0.3.0',
  kbctx: '^0.2',
  provides: ['route:GET /metrics'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    // One recorder per process, made by the first listener or the `[server] workers` primary.
    let recorder: Promise<RecorderModule.Recorder> | undefined;
    const recorderOf = (): Promise<RecorderModule.Recorder> =>
      (recorder ??= import('./recorder.ts').then((m) => m.createRecorder(kernel.use(indexService))));
    let worker: ClusterWorker | undefined;
    const cli = getCliHooks(kernel);
    cli.clusterWorker.tap('metrics', (channel) => {
      worker = channel;
      channel.answerGather(SNAPSHOT, async () => (await recorderOf()).snapshot());
    });
    // The primary runs the live index (sync runs, embedding) and serves no HTTP: its figures join every scrape.
    cli.clusterPrimary.tap('metrics', (channel) => {
      const metrics = recorderOf();
      observeLiveIndex(kernel, metrics);
      channel.answer(SCRAPE, async () => {
        const [{ aggregateSnapshots }, own, others] = await Promise.all([
          import('./aggregate.ts'),
          metrics.then((m) => m.snapshot()),
          channel.gather(SNAPSHOT, null),
        ]);
        return aggregateSnapshots([own, ...(others as RecorderModule.MetricsSnapshot[])]);
      });
    });
    getHttpHooks(kernel).httpRoutes.tapPromise('metrics', async (surfaces) => {
      const serve = kernel.use(serveService);
      const first = recorder === undefined;
      const metrics = await recorderOf();
      if (first) {
        const { observeKernel } = await import('./observe-kernel.ts');
        observeKernel(kernel.hooks, metrics);
        if (!worker) observeLiveIndex(kernel, Promise.resolve(metrics));
        const mcp = getMcpHttpHooks(kernel);
        mcp.exchangeOpened.tap('metrics', (exchange) => metrics.mcpExchange(exchange, 1));
        mcp.exchangeClosed.tap('metrics', (exchange) => metrics.mcpExchange(exchange, -1));
      }
      const { metricsSurface } = await import('./metrics-surface.ts');
      const channel = worker;
      const scrape = channel ? async () => String(await channel.ask(SCRAPE, null)) : () => metrics.scrape();
      surfaces.add(metricsSurface(metrics, scrape, { public: serverConfigOf(serve.kbctx.config).metricsPublic }));
    });
  },
});

/** live-index's runs and background embedding, in the process that runs them (single, or the primary). */
function observeLiveIndex(kernel: PluginKernel, metrics: Promise<RecorderModule.Recorder>): void {
  const hooks = getLiveIndexHooks(kernel);
  hooks.syncRun.tap('metrics', (report) => void metrics.then((m) => m.syncRun(report)));
  hooks.embedProgress.tap('metrics', (batch) => void metrics.then((m) => m.embedProgress(batch)));
}

export default plugin; // a named constant: see test/architecture.test.ts
