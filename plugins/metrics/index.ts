// First-party plugin: GET /metrics in the Prometheus text format (prom-client) on the HTTP server of
// `kbctx serve mcp`. It only observes, through others' hooks (transport-http's `httpRoutes` and
// `onResponse`, the kernel's `toolCall`/`toolResult`/`rank`, live-index's `syncRun`) and reads the index at
// scrape time; no plugin depends on it. prom-client and the recorder load when a listener starts, never
// on `kbctx search`; dropped (`"!metrics"`), nothing is tapped but `httpRoutes`.
import { definePlugin, indexService, serveService } from '../../core/api/plugin.ts';
import { getHttpHooks, serverConfigOf } from '../transport-http/api.ts';
import { getLiveIndexHooks } from '../live-index/api.ts';
import type * as RecorderModule from './recorder.ts';

const plugin = definePlugin({
  name: 'metrics',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['route:GET /metrics'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    // One recorder per process, made by the first listener (`--workers` processes each have their own).
    let recorder: Promise<RecorderModule.Recorder> | undefined;
    getHttpHooks(kernel).httpRoutes.tapPromise('metrics', async (surfaces) => {
      const serve = kernel.use(serveService);
      const first = recorder === undefined;
      recorder ??= import('./recorder.ts').then((m) => m.createRecorder(kernel.use(indexService)));
      const metrics = await recorder;
      if (first) {
        const { observeKernel } = await import('./observe-kernel.ts');
        observeKernel(kernel.hooks, metrics);
        getLiveIndexHooks(kernel).syncRun.tap('metrics', (report) => metrics.syncRun(report));
      }
      const { metricsSurface } = await import('./metrics-surface.ts');
      surfaces.add(metricsSurface(metrics, { public: serverConfigOf(serve.kbctx.config).metricsPublic }));
    });
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
