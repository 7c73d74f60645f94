// A small pool of Lua workers with a warm spare: at most `maxWorkers` threads; whenever it is below
// that, one idle (or starting) worker is kept ready so the next call does not pay the ~0.1 s start.
// Callers acquire with an AbortSignal (their deadline) and either release or discard the worker.
import { LuaWorkerHandle } from './lua-worker-handle.ts';

/**
 * A worker is retired after this many jobs. Each job gets a fresh Lua state, but the WASM memory a
 * worker has grown never shrinks and fragments over time: recycling keeps long-running servers flat
 * (bench:soak). A warm spare is ready, so a retirement costs no request a worker start.
 */
export const DEFAULT_MAX_JOBS_PER_WORKER = 500;

interface Waiter {
  resolve(worker: LuaWorkerHandle): void;
  reject(reason: unknown): void;
  signal: AbortSignal;
}

export class WorkerPool {
  private readonly maxWorkers: number;
  private readonly maxJobsPerWorker: number;
  private startedCount = 0;
  private readonly idle: LuaWorkerHandle[] = [];
  private readonly live = new Set<LuaWorkerHandle>();
  private readonly waiters: Waiter[] = [];
  private starting = 0;
  private closed = false;
  private warm: Promise<void> | undefined;

  constructor(maxWorkers: number, maxJobsPerWorker = DEFAULT_MAX_JOBS_PER_WORKER) {
    this.maxWorkers = Math.max(1, maxWorkers);
    this.maxJobsPerWorker = Math.max(1, maxJobsPerWorker);
  }

  /** Worker threads started so far (replacements and retirements included). */
  get started(): number {
    return this.startedCount;
  }

  /** The number of live worker threads (busy, idle and starting). */
  get size(): number {
    return this.live.size;
  }

  /** Resolves once a first worker has started (the one-time ~0.1 s WASM load), so callers can start their clocks after it. */
  warmUp(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the script runtime is closed'));
    this.warm ??= this.spawn().catch((error: unknown) => {
      this.warm = undefined;
      throw error;
    });
    return this.warm;
  }

  acquire(signal: AbortSignal): Promise<LuaWorkerHandle> {
    if (this.closed) return Promise.reject(new Error('the script runtime is closed'));
    if (signal.aborted) return Promise.reject(signal.reason);
    const worker = this.idle.pop();
    if (worker) {
      worker.setBusy(true);
      this.grow();
      return Promise.resolve(worker);
    }
    return new Promise<LuaWorkerHandle>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal };
      this.waiters.push(waiter);
      signal.addEventListener(
        'abort',
        () => {
          const i = this.waiters.indexOf(waiter);
          if (i >= 0) this.waiters.splice(i, 1);
          reject(signal.reason);
        },
        { once: true },
      );
      this.grow();
    });
  }

  /** Returns a healthy worker after a job. */
  release(worker: LuaWorkerHandle): void {
    if (worker.dead || this.closed || worker.jobs >= this.maxJobsPerWorker) return this.discard(worker);
    const waiter = this.waiters.shift();
    if (waiter) return waiter.resolve(worker);
    worker.setBusy(false);
    this.idle.push(worker);
  }

  /** Stops a worker (timed out, cancelled or crashed) and starts a replacement if needed. */
  discard(worker: LuaWorkerHandle): void {
    worker.terminate();
    this.forget(worker);
  }

  close(): void {
    this.closed = true;
    for (const w of this.waiters.splice(0)) w.reject(new Error('the script runtime is closed'));
    for (const worker of [...this.live]) worker.terminate();
    this.live.clear();
    this.idle.length = 0;
  }

  private forget(worker: LuaWorkerHandle): void {
    this.live.delete(worker);
    const i = this.idle.indexOf(worker);
    if (i >= 0) this.idle.splice(i, 1);
    this.grow();
  }

  /** Starts workers for the waiters, plus one warm spare, within the cap. */
  private grow(): void {
    if (this.closed) return;
    const wanted = this.waiters.length + 1;
    while (this.idle.length + this.starting < wanted && this.live.size < this.maxWorkers) void this.spawn();
  }

  /** Starts a worker; it joins the pool (or a waiter) once ready. Resolves then; rejects if it cannot start. */
  private spawn(): Promise<void> {
    const worker = new LuaWorkerHandle((w) => this.forget(w));
    this.startedCount++;
    this.live.add(worker);
    this.starting++;
    const started = worker.ready.then(
      () => {
        this.starting--;
        this.release(worker);
      },
      (error: unknown) => {
        // A worker that cannot even start (broken install): fail the waiters instead of respawning in a loop.
        this.starting--;
        this.live.delete(worker);
        for (const w of this.waiters.splice(0)) w.reject(error);
        throw error;
      },
    );
    started.catch(() => {}); // reported through the waiters / warmUp
    return started;
  }
}
