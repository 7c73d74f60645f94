// A small pool of Lua workers with a warm spare: `maxWorkers` threads (about one per core); whenever
// it is below that, one idle (or starting) worker is kept ready so the next call does not pay the
// ~0.1 s start. Runaway scripts cannot starve the others (ADR 0112): one script (key) holds at most
// `maxWorkers` workers, a free worker goes to the waiting script holding the fewest (fair-queue.ts),
// and when a call has waited OVERFLOW_AFTER_MS with every worker busy, spare threads are started
// beyond the core count, up to twice it. For SPARE_LINGER_MS after that (the pool is contended) the
// warm spare is kept within that larger cap too; then idle threads beyond the core count stop.
// Callers acquire with an AbortSignal (their deadline) and either release or discard the worker.
import { FairQueue } from './fair-queue.ts';
import { LuaWorkerHandle } from './lua-worker-handle.ts';

/**
 * A worker is retired after this many jobs. Each job gets a fresh Lua state, but the WASM memory a
 * worker has grown never shrinks and fragments over time: recycling keeps long-running servers flat
 * (bench:soak). A warm spare is ready, so a retirement costs no request a worker start.
 */
export const DEFAULT_MAX_JOBS_PER_WORKER = 500;
/** How long a call waits with every worker busy before a spare thread is started for it. */
export const OVERFLOW_AFTER_MS = 100;
/**
 * How long the pool stays contended after a call waited past OVERFLOW_AFTER_MS (spares kept, then stopped when idle).
 */
export const SPARE_LINGER_MS = 10_000;

interface Waiter {
  key: string;
  since: number;
  resolve(worker: LuaWorkerHandle): void;
  reject(reason: unknown): void;
}

export class WorkerPool {
  private readonly maxWorkers: number;
  private readonly maxTotal: number;
  private readonly maxJobsPerWorker: number;
  private startedCount = 0;
  private readonly idle: LuaWorkerHandle[] = [];
  private readonly live = new Set<LuaWorkerHandle>();
  /** Threads not yet exited (live ones and stopped ones still tearing down): close() waits for them. */
  private readonly threads = new Set<Promise<void>>();
  private readonly holders = new Map<LuaWorkerHandle, string>();
  private readonly queue: FairQueue<Waiter>;
  private starting = 0;
  private closed = false;
  private warm: Promise<void> | undefined;
  private overflowTimer: NodeJS.Timeout | undefined;
  private trimTimer: NodeJS.Timeout | undefined;
  private contendedUntil = 0;

  constructor(maxWorkers: number, maxJobsPerWorker = DEFAULT_MAX_JOBS_PER_WORKER) {
    this.maxWorkers = Math.max(1, maxWorkers);
    this.maxTotal = 2 * this.maxWorkers;
    this.maxJobsPerWorker = Math.max(1, maxJobsPerWorker);
    this.queue = new FairQueue(this.maxWorkers);
  }

  /** Worker threads started so far (replacements, retirements and spares included). */
  get started(): number {
    return this.startedCount;
  }

  /** The number of live worker threads (busy, idle and starting). */
  get size(): number {
    return this.live.size;
  }

  /**
   * Resolves once a first worker has started (the one-time ~0.1 s WASM load), so callers can start their clocks after
   * it.
   */
  warmUp(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the script runtime is closed'));
    this.warm ??= this.spawn().catch((error: unknown) => {
      this.warm = undefined;
      throw error;
    });
    return this.warm;
  }

  /** A worker for one job of the script `key` (its label), once one is free and `key` may hold another. */
  acquire(signal: AbortSignal, key = ''): Promise<LuaWorkerHandle> {
    if (this.closed) return Promise.reject(new Error('the script runtime is closed'));
    if (signal.aborted) return Promise.reject(signal.reason);
    const worker = this.queue.mayHold(key) ? this.idle.pop() : undefined;
    if (worker) return Promise.resolve(this.hand(worker, key));
    return new Promise<LuaWorkerHandle>((resolve, reject) => {
      const waiter: Waiter = { key, since: performance.now(), resolve, reject };
      this.queue.push(waiter);
      const onAbort = (): void => {
        if (this.queue.remove(waiter)) reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.grow();
      this.planOverflow();
    });
  }

  /** Returns a healthy worker after a job. */
  release(worker: LuaWorkerHandle): void {
    this.unhold(worker);
    if (worker.dead || this.closed || worker.jobs >= this.maxJobsPerWorker) return this.discard(worker);
    this.offer(worker);
  }

  /** Stops a worker (timed out, cancelled or crashed) and starts a replacement if needed. */
  discard(worker: LuaWorkerHandle): void {
    this.unhold(worker);
    worker.terminate();
    this.forget(worker);
  }

  /**
   * Stops every thread and resolves once all of them (those stopped earlier included) have exited. A process that
   * exits while a worker's V8 isolate is still being torn down can abort inside V8 (ADR 0253), so shutdown waits.
   */
  close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.overflowTimer);
    clearTimeout(this.trimTimer);
    for (const w of this.queue.drain()) w.reject(new Error('the script runtime is closed'));
    for (const worker of [...this.live]) worker.terminate();
    this.live.clear();
    this.idle.length = 0;
    return Promise.all(this.threads).then(() => undefined);
  }

  private hand(worker: LuaWorkerHandle, key: string): LuaWorkerHandle {
    worker.setBusy(true);
    this.holders.set(worker, key);
    this.queue.hold(key);
    this.grow();
    return worker;
  }

  private unhold(worker: LuaWorkerHandle): void {
    const key = this.holders.get(worker);
    if (key === undefined) return;
    this.holders.delete(worker);
    this.queue.unhold(key);
  }

  /** A free, ready worker: to the waiter served next, else idle. */
  private offer(worker: LuaWorkerHandle): void {
    const waiter = this.queue.take();
    if (waiter) return waiter.resolve(this.hand(worker, waiter.key));
    worker.setBusy(false);
    this.idle.push(worker);
    this.planTrim();
  }

  private forget(worker: LuaWorkerHandle): void {
    this.live.delete(worker);
    const i = this.idle.indexOf(worker);
    if (i >= 0) this.idle.splice(i, 1);
    this.grow();
    this.planOverflow();
  }

  /**
   * Starts workers for the waiters that may take one, plus one warm spare, within `maxWorkers` (`maxTotal` while
   * contended).
   */
  private grow(): void {
    if (this.closed) return;
    const wanted = this.queue.eligible().length + 1;
    const cap = performance.now() < this.contendedUntil ? this.maxTotal : this.maxWorkers;
    while (this.idle.length + this.starting < wanted && this.live.size < cap) void this.spawn();
  }

  /** Arms the overflow check for the oldest eligible waiter that is not yet due (none armed twice). */
  private planOverflow(after = -Infinity): void {
    if (this.closed || this.overflowTimer !== undefined) return;
    const next = this.queue.eligible().find((w) => w.since > after);
    if (!next) return;
    this.overflowTimer = setTimeout(
      () => this.overflow(),
      Math.max(0, next.since + OVERFLOW_AFTER_MS - performance.now()),
    );
    this.overflowTimer.unref();
  }

  /** Every eligible waiter that waited OVERFLOW_AFTER_MS and has no worker coming gets a spare, up to `maxTotal`. */
  private overflow(): void {
    this.overflowTimer = undefined;
    const dueBy = performance.now() - OVERFLOW_AFTER_MS;
    const due = this.queue.eligible().filter((w) => w.since <= dueBy).length;
    if (due > 0) this.contendedUntil = performance.now() + SPARE_LINGER_MS;
    for (let short = due - this.starting - this.idle.length; short > 0 && this.live.size < this.maxTotal; short--)
      void this.spawn();
    this.planOverflow(dueBy);
  }

  /** Once the pool is no longer contended, stops idle threads beyond `maxWorkers`. */
  private planTrim(): void {
    if (this.closed || this.trimTimer !== undefined || this.live.size <= this.maxWorkers) return;
    this.trimTimer = setTimeout(
      () => {
        this.trimTimer = undefined;
        if (performance.now() >= this.contendedUntil) {
          while (this.live.size > this.maxWorkers && this.idle.length > 0) this.discard(this.idle.shift()!);
        }
        if (this.idle.length > 0) this.planTrim();
      },
      Math.max(this.contendedUntil - performance.now(), 0) + 50,
    );
    this.trimTimer.unref();
  }

  /** Starts a worker; it joins the pool (or a waiter) once ready. Resolves then; rejects if it cannot start. */
  private spawn(): Promise<void> {
    const worker = new LuaWorkerHandle((w) => this.forget(w));
    const thread = worker.exited.then(() => void this.threads.delete(thread));
    this.threads.add(thread);
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
        for (const w of this.queue.drain()) w.reject(error);
        throw error;
      },
    );
    started.catch(() => {}); // reported through the waiters / warmUp
    return started;
  }
}
