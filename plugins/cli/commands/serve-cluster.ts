// Multi-process serving (`[server] workers` > 1): the primary forks workers that share one listening
// socket (node:cluster), prints the start-up lines once, restarts a worker that dies, and forwards
// SIGINT/SIGTERM. Each worker is a full server with its own SQLite connection (WAL: concurrent readers).
// MCP is served statelessly, so no request needs to reach a particular worker.
import cluster, { type Worker } from 'node:cluster';
import { once } from 'node:events';

export interface WorkerHello {
  type: 'kbctx-listening';
  /** The worker's start-up banner (what it serves, and where). */
  lines: string[];
}

export const isClusterWorker = (): boolean => cluster.isWorker;

/** Called in a worker once it listens: hands the primary its banner. */
export function announceListening(lines: string[]): void {
  process.send?.({ type: 'kbctx-listening', lines } satisfies WorkerHello);
}

/** Runs in the primary: forks `count` workers, resolves when they have all exited after a signal. */
export async function runPrimary(
  count: number,
  onFirstListening: (lines: string[]) => void,
  log: (line: string) => void,
  onFork?: (worker: Worker) => void,
): Promise<void> {
  let stopping = false;
  let announced = false;
  const fork = (): void => {
    const worker = cluster.fork({ KBCTX_WORKER: '1' });
    onFork?.(worker);
    worker.on('message', (message: WorkerHello) => {
      if (message?.type === 'kbctx-listening' && !announced) {
        announced = true;
        onFirstListening(message.lines);
      }
    });
  };
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    log(`worker ${worker.process.pid} exited (${signal ?? code}); starting a new one`);
    fork();
  });
  for (let i = 0; i < count; i++) fork();
  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals): void => {
      if (stopping) return;
      stopping = true;
      log(`${signal}: shutting down ${Object.keys(cluster.workers ?? {}).length} workers`);
      const workers = Object.values(cluster.workers ?? {});
      const exits = workers.map((w) => {
        w?.process.kill(signal);
        return w ? once(w, 'exit') : Promise.resolve();
      });
      // Workers finish in-flight requests (5 s grace); anything still running after that is killed.
      const deadline = setTimeout(() => workers.forEach((w) => w?.process.kill('SIGKILL')), 8_000);
      void Promise.all(exits).then(() => {
        clearTimeout(deadline);
        resolve();
      });
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
}
