// Runs Lua jobs off the main thread with a hard time-out. The deadline covers everything the call
// does — waiting for a free worker, Lua code, sleep, http, context calls: when it passes, the worker is
// stopped (terminate) and the call fails with KbctxError('timeout'). Lua failures become
// KbctxError('script_error') with the Lua message (file:line). Never imports the Lua VM itself.
import { KbctxError, lineLog } from '../../../../core/index.ts';
import { AsyncResource } from 'node:async_hooks';
import { availableParallelism } from 'node:os';
import { capMessage } from '../cap-message.ts';
import type { ContextMethod, Job, LogLevel } from '../protocol.ts';
import { JobFailure, type LuaWorkerHandle } from './lua-worker-handle.ts';
import { WorkerPool } from './worker-pool.ts';

export const DEFAULT_MEMORY_MAX_BYTES = 64 * 1024 * 1024;

export type LogSink = (label: string, level: LogLevel, message: string) => void;
/** Answers `context.search/get/sources`; throws (any Error) to raise a Lua error with its message. */
export type ContextHandler = (method: ContextMethod, args: unknown[]) => Promise<unknown>;

export interface RuntimeOptions {
  maxWorkers?: number | undefined;
  memoryMaxBytes?: number | undefined;
  log?: LogSink | undefined;
  /** Jobs a worker runs before it is replaced (worker-pool.ts); 500 when absent. */
  maxJobsPerWorker?: number | undefined;
  /** The variables scripts may read with `env.get` (name → value); none when absent. */
  env?: Readonly<Record<string, string>> | undefined;
}

export interface RunOptions {
  timeoutSecs: number;
  context?: ContextHandler | undefined;
  /** Aborted when the caller gives up: the script is stopped like a time-out. */
  signal?: AbortSignal | undefined;
}

export type JobRequest = Omit<Job, 'deadline' | 'memoryMaxBytes' | 'withContext' | 'env'>;

const stderrLine = lineLog((text) => void process.stderr.write(text));
export const stderrLog: LogSink = (label, level, message) => stderrLine(`${label} [${level}] ${message}`);

export class ScriptRuntime {
  private readonly pool: WorkerPool;
  private readonly memoryMaxBytes: number;
  private readonly log: LogSink;
  private readonly env: Readonly<Record<string, string>>;

  constructor(options: RuntimeOptions = {}) {
    this.env = { ...options.env };
    this.pool = new WorkerPool(options.maxWorkers ?? Math.max(2, availableParallelism()), options.maxJobsPerWorker);
    this.memoryMaxBytes = options.memoryMaxBytes ?? DEFAULT_MEMORY_MAX_BYTES;
    this.log = options.log ?? stderrLog;
  }

  /** Live worker threads (for tests and benchmarks). */
  get workers(): number {
    return this.pool.size;
  }

  /** Worker threads started since the runtime began (for tests and benchmarks). */
  get workersStarted(): number {
    return this.pool.started;
  }

  async run(request: JobRequest, options: RunOptions): Promise<unknown> {
    try {
      await this.pool.warmUp(); // the clock starts once the runtime is up, not during its one-time start
    } catch (error) {
      throw toKbctxError(request.label, error);
    }
    const timeoutMs = options.timeoutSecs * 1000;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(timedOut(request.label, options.timeoutSecs)), timeoutMs);
    const onCancel = (): void =>
      controller.abort(new KbctxError('timeout', `${request.label}: the call was cancelled`));
    options.signal?.addEventListener('abort', onCancel, { once: true });
    if (options.signal?.aborted) onCancel();
    const job: Job = {
      ...request,
      deadline: Date.now() + timeoutMs,
      memoryMaxBytes: this.memoryMaxBytes,
      withContext: options.context !== undefined,
      env: this.env,
    };
    const noContext: ContextHandler = () => Promise.reject(new Error('the context bridge is not available here'));
    // The worker's replies arrive outside this call's async context: bound here, a context call runs in the caller's
    // request (its token's scope, ADR 0225), not in whichever request happened to start the worker.
    const hooks = { log: this.log, context: AsyncResource.bind(options.context ?? noContext) };
    let worker: LuaWorkerHandle | undefined;
    try {
      worker = await this.pool.acquire(controller.signal, request.label);
      const value = await raceAbort(worker.run(job, hooks), controller.signal);
      this.pool.release(worker);
      return value;
    } catch (error) {
      // Only a normal Lua error leaves a reusable worker; anything else (time-out, cancel, crash, WASM
      // trap, memory cap) may have left the VM broken, so it is replaced.
      if (worker) {
        const luaError = error instanceof JobFailure && error.kind === 'script';
        if (controller.signal.aborted || worker.dead || !luaError) this.pool.discard(worker);
        else this.pool.release(worker);
      }
      throw toKbctxError(request.label, error);
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onCancel);
    }
  }

  /** Stops the workers; resolves once their threads have exited. */
  close(): Promise<void> {
    return this.pool.close();
  }
}

const timedOut = (label: string, secs: number): KbctxError =>
  new KbctxError('timeout', `${label} timed out after ${secs} s`);

/** Lua messages are the script's text: capped (cap-message.ts) so a huge `error()` stays a small answer. */
function toKbctxError(label: string, error: unknown): KbctxError {
  if (error instanceof KbctxError) return error;
  const message = error instanceof JobFailure ? error.message : ((error as Error)?.message ?? String(error));
  return new KbctxError('script_error', capMessage(`${label}: ${message}`), { cause: error });
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
