// The messages between the main thread (runtime/) and a Lua worker (worker/). Plain data only:
// everything here crosses `postMessage` by structured clone.

/** What a job asks the script to do; each kind has one entry function in lua/runner.lua. */
export type JobKind =
  | 'tool.meta'
  | 'tool.execute'
  | 'agent.meta'
  | 'agent.resolve'
  | 'connector.scan'
  | 'plugin.meta'
  | 'plugin.call';

export interface Job {
  kind: JobKind;
  /** `tool:<name>`, `agent:<name>`, `script:<name>` or `lua:<plugin>`: prefixes log lines and error messages. */
  label: string;
  /** Absolute path of the .lua file; its folder is the `fs` root. */
  scriptPath: string;
  /** The script's config section (every key except `path` and `timeout`), JSON-safe. */
  config: Record<string, unknown>;
  /** Tool params, agent args, `{checkpoint}` for a connector scan, `{hook, args, n}` for a plugin call. JSON-safe. */
  input: unknown;
  /** Epoch milliseconds past which the main thread ends the call (host calls clamp their waits to it). */
  deadline: number;
  memoryMaxBytes: number;
  /** Whether the `context` bridge is offered (tools and agents; connectors get none). */
  withContext: boolean;
  /** What `env.get` may read: only the operator-allowed variables ([scripts] env_allow), with their values. */
  env: Readonly<Record<string, string>>;
}

export type ContextMethod = 'search' | 'get' | 'sources';

export type MainToWorker =
  | { type: 'run'; id: number; job: Job }
  | { type: 'host-reply'; callId: number; ok: true; value: unknown }
  | { type: 'host-reply'; callId: number; ok: false; message: string };

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/**
 * `memory`: the state hit its memory cap; `script`: any other Lua or host error; `trap`: the VM itself
 * failed (WASM trap, stack overflow) and the worker must not run another job.
 */
export type JobErrorKind = 'script' | 'memory' | 'trap';

export type WorkerToMain =
  | { type: 'ready' }
  | { type: 'host'; id: number; callId: number; method: ContextMethod; args: unknown[] }
  | { type: 'log'; label: string; level: LogLevel; message: string }
  | { type: 'done'; id: number; ok: true; value: unknown }
  | { type: 'done'; id: number; ok: false; kind: JobErrorKind; message: string };
