// The `kbctx.serve` service: what `kbctx serve mcp` hands the transport plugins (transport-http, rest,
// mcp-http, web, mcp-stdio) once the index is open and the live index runs. Provided by the host
// for the one serve of a process; types only (its ref, serveService, is host-service.ts's: one module
// fewer at start-up, ADR 0130).
import type { AgentRegistry } from './agents.ts';
import type { ToolRegistry } from './tools.ts';
import type { Kbctx } from './compose.ts';
import type { Worker } from 'node:cluster';

// What the surfaces see of the live index (the live-index plugin's contract, plugins/live-index/api.ts, re-exports
// them).
export type SyncState = 'idle' | 'running' | 'failed';

export interface SyncCounts {
  fetched: number;
  upserted: number;
  unchanged: number;
  deleted: number;
  skipped: number;
  errors: number;
  chunksWritten: number;
}

/** One connector's state in the live index (GET /sync/status, the MCP resource kbctx://sync/status). */
export interface ConnectorStatus {
  connector: string;
  state: SyncState;
  lastStartedAt: string | null;
  lastFinishedAt: string | null;
  lastCounts: SyncCounts | null;
  lastError: string | null;
  nextRunAt: string | null;
}

/** What the surfaces see: status and on-demand runs. */
export interface SyncControl {
  status(): Promise<ConnectorStatus[]>;
  /** Starts (or queues) a run of one connector; throws not_found for an unknown label. */
  trigger(label: string): Promise<ConnectorStatus>;
}

/** The live index as the server runs it (a cluster worker's is a proxy to the primary's). */
export interface LiveIndex {
  control: SyncControl;
  /** The status as its wire JSON (the MCP resource). */
  statusJson(): Promise<unknown>;
  /** After a sync changed documents; `connector`: its label (an MCP stream hears only of sources in its scope). */
  onIndexChanged(listener: (connector: string) => void): void;
  /** Primary only: serve this worker's status and trigger calls. */
  attachWorker(worker: Worker): void;
  close(): Promise<void>;
}

export interface ServeState {
  kbctx: Kbctx;
  tools: ToolRegistry;
  agents: AgentRegistry;
  /**
   * The live index of this process (in a cluster worker: a proxy to the primary's); null without the live-index plugin.
   */
  live: LiveIndex | null;
  version: string;
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
  /** Lines only worth showing when debugging (KBCTX_DEBUG); undefined otherwise. */
  debug: ((line: string) => void) | undefined;
  /** True in a `[server] workers` process: the primary prints the banner and warnings. */
  isWorker: boolean;
}
