// What the metrics plugin counts, on a prom-client registry of its own (plus prom-client's default
// process metrics): HTTP requests by route and status, tool calls, searches by mode, the rank stage, live
// sync runs per connector, background embedding, open MCP exchanges; and, read at scrape time, the search
// cache's hits and the index per source. Each metric names how `[server] workers` processes' figures
// combine (`aggregator`, ADR 0226): sums, but the index per source, which every process reads alike.
import client from 'prom-client';
import type { IndexHost, SyncReport, ToolCall } from '../../core/api/plugin.ts';
import type { HttpReply, HttpRequest } from '../transport-http/api.ts';
import type { EmbedBatch } from '../live-index/api.ts';
import type { McpExchange } from '../mcp-http/api.ts';

/** This process's figures as prom-client's JSON (what `[server] workers` processes send each other). */
export type MetricsSnapshot = client.MetricObjectWithValues<client.MetricValue<string>>[];

export interface Recorder {
  readonly contentType: string;
  /** The text exposition of every metric of this process (reads the index's per-source counts). */
  scrape(): Promise<string>;
  /** The same figures as JSON, for another process to aggregate. */
  snapshot(): Promise<MetricsSnapshot>;
  httpRequest(request: HttpRequest, reply: HttpReply): void;
  toolCall(call: ToolCall, result: unknown, seconds: number): void;
  rankDone(seconds: number): void;
  rankUncacheable(): void;
  syncRun(report: SyncReport): void;
  embedProgress(batch: EmbedBatch): void;
  /** An MCP exchange opened (+1) or closed (-1). */
  mcpExchange(exchange: McpExchange, delta: 1 | -1): void;
}

// Request latencies, seconds: 1 ms to 10 s.
const LATENCY = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const RESULT_COUNTS = [0, 1, 2, 5, 10, 20, 50, 100];

export function createRecorder(index: IndexHost): Recorder {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const counter = (name: string, help: string, labelNames: string[] = []) =>
    new client.Counter({ name, help, labelNames, registers });
  const histogram = (name: string, help: string, labelNames: string[], buckets: number[]) =>
    new client.Histogram({ name, help, labelNames, buckets, registers });

  const httpDuration = histogram(
    'kbctx_http_request_duration_seconds',
    'HTTP requests answered, by method, route (the pattern; "unmatched" for no route) and status',
    ['method', 'route', 'status'],
    LATENCY,
  );
  const toolDuration = histogram(
    'kbctx_tool_call_duration_seconds',
    'Tool calls that returned a result (REST and MCP), by tool',
    ['tool'],
    LATENCY,
  );
  const searchDuration = histogram(
    'kbctx_search_duration_seconds',
    'Searches (the search tool) that returned, by mode',
    ['mode'],
    LATENCY,
  );
  const searchResults = histogram(
    'kbctx_search_results',
    'Results returned per search, by mode',
    ['mode'],
    RESULT_COUNTS,
  );
  const rankDuration = histogram(
    'kbctx_rank_duration_seconds',
    'Time in the rank taps (rerank included) per ranked search that was not served from the cache',
    [],
    LATENCY,
  );
  const rankUncacheable = counter(
    'kbctx_rank_uncacheable_total',
    'Ranked searches a rank tap marked uncacheable (rerank: a fail-open, the fused order kept)',
  );
  const syncRuns = counter('kbctx_sync_runs_total', 'Connector runs of the live index, by connector and outcome', [
    'connector',
    'outcome',
  ]);
  const syncDocuments = counter(
    'kbctx_sync_documents_total',
    'Documents seen by live-index runs, by connector and kind (upserted, unchanged, deleted, skipped)',
    ['connector', 'kind'],
  );
  const syncErrors = counter('kbctx_sync_errors_total', 'Document errors in live-index runs, by connector', [
    'connector',
  ]);
  const syncChunks = counter('kbctx_sync_chunks_written_total', 'Chunks written by live-index runs, by connector', [
    'connector',
  ]);

  // Read at scrape time: the search cache's own counters and the index's per-source figures.
  new client.Counter({
    name: 'kbctx_search_cache_hits_total',
    help: 'Search cache hits (engine candidates and ranked pages) in this process',
    registers,
    collect() {
      this.reset();
      this.inc(index.searchDeps().cache?.hits ?? 0);
    },
  });
  new client.Counter({
    name: 'kbctx_search_cache_misses_total',
    help: 'Search cache misses in this process',
    registers,
    collect() {
      this.reset();
      this.inc(index.searchDeps().cache?.misses ?? 0);
    },
  });
  // Every process reads the same index: its figures are not summed across workers.
  const indexGauge = (name: string, help: string) =>
    new client.Gauge({ name, help, labelNames: ['source'], registers, aggregator: 'max' });
  const documents = indexGauge('kbctx_index_documents', 'Documents in the index, by source');
  const chunks = indexGauge('kbctx_index_chunks', 'Chunks in the index, by source');
  const embedded = indexGauge('kbctx_index_embedded_chunks', 'Chunks with an embedding, by source');
  // The whole index: a store's pages and files are shared by every source, so bytes are not split by source (ADR 0226).
  const indexBytes = new client.Gauge({
    name: 'kbctx_index_bytes',
    help: 'Size of the index in bytes, as kbctx stats reports it (SQLite: file and WAL; PostgreSQL: the database)',
    registers,
    aggregator: 'max',
  });

  const embeddedChunks = counter(
    'kbctx_embedded_chunks_total',
    "Chunks the server's background embedding embedded and wrote, by model (chunks/s: rate())",
    ['model'],
  );
  const embedQueue = new client.Gauge({
    name: 'kbctx_embedding_queue_chunks',
    help:
      "Chunks background embedding's current pass has still to embed (0 when idle; a failed pass's rest until the " +
      'retry)',
    registers,
  });
  const openRequests = new client.Gauge({
    name: 'kbctx_mcp_open_requests',
    help: 'MCP requests being answered on /mcp (streamed responses included, listen streams not)',
    registers,
  });
  const listenStreams = new client.Gauge({
    name: 'kbctx_mcp_listen_streams',
    help: 'Open MCP subscriptions/listen streams on /mcp',
    registers,
  });
  new client.Gauge({
    name: 'kbctx_metrics_processes',
    help:
      'Processes whose figures this scrape holds (1; with [server] ' +
      'workers, the primary and each worker that answered)',
    registers,
  }).set(1);

  const refreshIndex = async (): Promise<void> => {
    const [sources, bytes] = await Promise.all([index.store.sources(), index.store.sizeBytes()]);
    indexBytes.set(bytes);
    for (const gauge of [documents, chunks, embedded]) gauge.reset();
    for (const s of sources) {
      documents.set({ source: s.source }, s.documentCount);
      chunks.set({ source: s.source }, s.chunkCount);
      embedded.set({ source: s.source }, s.embeddedCount);
    }
  };

  return {
    contentType: registry.contentType,
    async scrape() {
      await refreshIndex();
      return registry.metrics();
    },
    async snapshot() {
      await refreshIndex();
      return registry.getMetricsAsJSON();
    },
    httpRequest(request, reply) {
      const route = request.routeOptions.url ?? 'unmatched';
      httpDuration.observe(
        { method: request.method, route, status: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
    },
    toolCall(call, result, seconds) {
      toolDuration.observe({ tool: call.name }, seconds);
      if (call.name !== 'search') return;
      // An absent mode is the search tool's default, keyword (tools-builtin/search-params.ts).
      const mode = typeof call.params['mode'] === 'string' ? call.params['mode'] : 'keyword';
      searchDuration.observe({ mode }, seconds);
      const results = (result as { results?: unknown } | null)?.results;
      if (Array.isArray(results)) searchResults.observe({ mode }, results.length);
    },
    rankDone: (seconds) => rankDuration.observe(seconds),
    rankUncacheable: () => rankUncacheable.inc(),
    syncRun(report) {
      const connector = report.connector;
      const outcome = report.failure ? 'failed' : report.upToDate !== undefined ? 'up_to_date' : 'ok';
      syncRuns.inc({ connector, outcome });
      for (const kind of ['upserted', 'unchanged', 'deleted', 'skipped'] as const)
        syncDocuments.inc({ connector, kind }, report[kind]);
      syncErrors.inc({ connector }, report.errors);
      syncChunks.inc({ connector }, report.chunksWritten);
    },
    embedProgress(batch) {
      if (batch.chunks > 0) embeddedChunks.inc({ model: batch.model }, batch.chunks);
      embedQueue.set(batch.waiting);
    },
    mcpExchange(exchange, delta) {
      (exchange.kind === 'listen' ? listenStreams : openRequests).inc(delta);
    },
  };
}
