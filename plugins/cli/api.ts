// The cli plugin's contract entry (ADR 0160, 0170): what the commands other plugins add through the
// `commands` hook use — the `kbctx.cli` service (the CLI's context: output, --json, the config and the
// host), provided by the runner before it calls the hook, and the helpers for tables, progress lines
// and `key=value` arguments (defined here: one module fewer at start-up). Light: the helpers' files
// load nothing but core's plugin entry, and only when a command first calls one (`kbctx search` does not).
import { SyncHook } from 'tapable';
import {
  badRequest,
  createServiceRef,
  defineExtensionPoint,
  requireOwn,
  type PluginKernel,
} from '../../core/api/plugin.ts';
import type { Kbctx } from '../../core/api/plugin.ts';
import type { LiveIndex } from '../live-index/api.ts';
import type { CliContext } from './context.ts';
import type * as Table from './table.ts';
import type * as Progress from './progress.ts';
import type * as ProgressLines from './progress-lines.ts';
import type { AgentRegistry } from '../agents-inline/api.ts';
import type { ToolRegistry } from '../tool-registry/api.ts';

export type { CliContext, CliIO, GlobalOptions } from './context.ts';
export type { ProgressOptions } from './progress.ts';
export const cliService = createServiceRef<CliContext>('kbctx.cli');

/**
 * The `kbctx.serve` service: what `kbctx serve` (this plugin's serve command; the library's `createHttpHandler`) hands
 * the transport plugins (transport-http, rest, mcp-http, web, mcp-stdio, live-index, metrics) once the index is open
 * and the live index runs, for the one serve of a process (formerly core's, ADR 0238).
 */
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

export const serveService = createServiceRef<ServeState>('kbctx.serve');

/**
 * The primary of `[server] workers` (node:cluster) as a plugin sees it: questions by topic between the processes
 * (ADR 0226). Messages are JSON over the cluster's IPC channel.
 */
export interface ClusterPrimary {
  /** Answers the workers' `ask(topic, body)`: one answerer per topic (a second throws). */
  answer(topic: string, answer: (body: unknown) => Promise<unknown>): void;
  /**
   * Asks every connected worker its `answerGather(topic)` answer; resolves with those that came within 5 s (a worker
   * that is starting, gone or has no answerer is left out), in no particular order.
   */
  gather(topic: string, body: unknown): Promise<unknown[]>;
}

/** A worker of `[server] workers` as a plugin sees it. */
export interface ClusterWorker {
  /** Asks the primary; rejects `unavailable` when it has no answerer for the topic or does not answer within 10 s. */
  ask(topic: string, body: unknown): Promise<unknown>;
  /** Answers the primary's `gather(topic, body)`: one answerer per topic (a second throws). */
  answerGather(topic: string, answer: (body: unknown) => Promise<unknown>): void;
}

/**
 * The cli plugin's hooks (sync), called by `kbctx serve` with `[server] workers` > 1: `clusterPrimary` in the primary
 * before it forks the workers, `clusterWorker` in each worker before its transport starts. Without workers neither is
 * called. A tap's error stops the server (it is a start-up step).
 */
export const cliHooks = defineExtensionPoint({
  id: 'cli',
  hooks: () => ({
    clusterPrimary: new SyncHook<[ClusterPrimary]>(['primary'], 'clusterPrimary'),
    clusterWorker: new SyncHook<[ClusterWorker]>(['worker'], 'clusterWorker'),
  }),
});

export type CliHooks = ReturnType<typeof cliHooks.hooks>;

/** The cli plugin's hooks in this kernel: `getCliHooks(kernel).clusterWorker.tap('my-plugin', (worker) => …)`. */
export const getCliHooks = (kernel: Pick<PluginKernel, 'hooksOf'>): CliHooks => kernel.hooksOf(cliHooks);

// The helpers' modules are required on first call (ADR 0130: a command that prints no table loads none).
const table = (): typeof Table => requireOwn(import.meta.url, './table.ts');
const progress = (): typeof Progress => requireOwn(import.meta.url, './progress.ts');
const progressLines = (): typeof ProgressLines => requireOwn(import.meta.url, './progress-lines.ts');
export const formatTable: typeof Table.formatTable = (...args) => table().formatTable(...args);
export const formatBytes: typeof Table.formatBytes = (bytes) => table().formatBytes(bytes);
export const createProgress: typeof Progress.createProgress = (...args) => progress().createProgress(...args);
export const progressEveryMs: typeof Progress.progressEveryMs = (env) => progress().progressEveryMs(env);
export const createProgressLines: typeof ProgressLines.createProgressLines = (...args) =>
  progressLines().createProgressLines(...args);
export const formatDuration: typeof ProgressLines.formatDuration = (seconds) => progressLines().formatDuration(seconds);

// `--param k=v` / `--arg k=v` flags → an object. Values are JSON when they parse (numbers, booleans,
// arrays), else strings; `asString` lists keys that always stay strings (string-typed parameters).
export const collect = (value: string, previous: string[]): string[] => [...previous, value];

export function parseKeyValues(
  pairs: readonly string[],
  asString: ReadonlySet<string> = new Set(),
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw badRequest(`expected key=value, got '${pair}'`);
    const key = pair.slice(0, eq);
    const raw = pair.slice(eq + 1);
    // Defined, not assigned: `--param __proto__=…` stays an own key, which validation then refuses.
    Object.defineProperty(out, key, {
      value: asString.has(key) ? raw : parseLoose(raw),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

function parseLoose(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
