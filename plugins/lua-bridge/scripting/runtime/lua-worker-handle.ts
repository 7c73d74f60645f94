// The main thread's handle on one Lua worker thread: starts it, runs one job at a time on it,
// answers its context-bridge calls, and reports when it dies. Knows nothing about pooling.
import { Worker } from 'node:worker_threads';
import type { ContextMethod, Job, JobErrorKind, LogLevel, MainToWorker, WorkerToMain } from '../protocol.ts';

// Beside this file: lua-worker.ts when run from the sources, lua-worker.js in the built package.
const WORKER_URL = new URL(`../worker/lua-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);
// WASM memory is not covered by these; the Lua state's own cap (setMemoryMax) is what bounds scripts.
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32 };

export interface JobHooks {
  log(label: string, level: LogLevel, message: string): void;
  context(method: ContextMethod, args: unknown[]): Promise<unknown>;
}

/** A job that ended with a Lua/host error (`script`, `memory`) or because its worker died (`crash`). */
export class JobFailure extends Error {
  readonly kind: JobErrorKind | 'crash';
  constructor(kind: JobErrorKind | 'crash', message: string) {
    super(message);
    this.kind = kind;
  }
}

interface Current {
  id: number;
  hooks: JobHooks;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export class LuaWorkerHandle {
  /** Resolves once the WASM module is loaded; rejects if the worker dies first. */
  readonly ready: Promise<void>;
  /** Resolves once the thread has stopped and its V8 isolate is gone (worker-pool.ts awaits it on close). */
  readonly exited: Promise<void>;
  dead = false;
  /** Jobs started on this worker (the pool retires workers after a number of jobs). */
  jobs = 0;
  private readonly worker: Worker;
  private current: Current | null = null;
  private nextId = 1;

  constructor(onExit: (handle: LuaWorkerHandle) => void) {
    // An empty environment: scripts see only the allowed variables their job carries (host/env.ts).
    this.worker = new Worker(WORKER_URL, { resourceLimits: RESOURCE_LIMITS, stderr: false, stdout: false, env: {} });
    this.ready = new Promise<void>((resolve, reject) => {
      this.worker.once('message', (m: WorkerToMain) =>
        m.type === 'ready' ? resolve() : reject(new Error('unexpected first message from the Lua worker')),
      );
      this.worker.once('exit', () => reject(new JobFailure('crash', 'the Lua worker stopped before it was ready')));
    });
    this.ready.catch(() => {}); // observed by whoever awaits it; never an unhandled rejection
    this.exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.on('message', (m: WorkerToMain) => this.onMessage(m));
    this.worker.on('error', (error) => this.die(`the Lua worker failed: ${error.message}`));
    this.worker.on('exit', (code) => {
      this.die(`the Lua worker stopped unexpectedly (exit code ${code})`);
      onExit(this);
    });
  }

  /** Runs a job; rejects with JobFailure. One job at a time (the pool guarantees it). */
  run(job: Job, hooks: JobHooks): Promise<unknown> {
    if (this.dead) return Promise.reject(new JobFailure('crash', 'the Lua worker is gone'));
    this.jobs++;
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.current = { id, hooks, resolve, reject };
      this.send({ type: 'run', id, job });
    });
  }

  /** Stops the thread at once, even inside a spinning Lua loop. */
  terminate(): void {
    this.die('the Lua worker was stopped');
    void this.worker.terminate();
  }

  /** Busy workers keep the process alive; idle ones must not. */
  setBusy(busy: boolean): void {
    if (busy) this.worker.ref();
    else this.worker.unref();
  }

  private onMessage(m: WorkerToMain): void {
    const current = this.current;
    if (m.type === 'ready' || !current) return;
    if (m.type === 'log') return current.hooks.log(m.label, m.level, m.message);
    if (m.type === 'host') {
      if (m.id !== current.id) return;
      current.hooks.context(m.method, m.args).then(
        (value) => this.send({ type: 'host-reply', callId: m.callId, ok: true, value: value ?? null }),
        (error: unknown) =>
          this.send({
            type: 'host-reply',
            callId: m.callId,
            ok: false,
            message: (error as Error)?.message ?? String(error),
          }),
      );
      return;
    }
    if (m.id !== current.id) return;
    this.current = null;
    if (m.ok) current.resolve(m.value);
    else current.reject(new JobFailure(m.kind, m.message));
  }

  private send(message: MainToWorker): void {
    if (!this.dead) this.worker.postMessage(message);
  }

  private die(why: string): void {
    if (this.dead) return;
    this.dead = true;
    const current = this.current;
    this.current = null;
    current?.reject(new JobFailure('crash', why));
  }
}
