// The figures of `[server] workers` processes as one exposition (ADR 0226): prom-client's own aggregation
// (AggregatorRegistry.aggregate) of each process's snapshot, every metric combined by its `aggregator` (sum unless
// it names another), with `kbctx_metrics_processes` counting the snapshots.
import client from 'prom-client';
import type { MetricsSnapshot } from './recorder.ts';

export function aggregateSnapshots(snapshots: readonly MetricsSnapshot[]): Promise<string> {
  return client.AggregatorRegistry.aggregate([...snapshots]).metrics();
}
