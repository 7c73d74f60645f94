// Lets the event loop turn during long work that is otherwise all microtasks (synchronous file reads and
// SQLite writes chained by promises): without a turn, timers (the CLI's progress lines) and sockets (a
// server's /health and searches during a sync) wait for the whole sync.
const TURN_EVERY_MS = 20;

/** A function to await between items: resolves at once, or after one setImmediate every `everyMs`. */
export function createEventLoopTurns(everyMs = TURN_EVERY_MS): () => Promise<void> {
  let last = performance.now();
  return async () => {
    if (performance.now() - last < everyMs) return;
    await new Promise((resolve) => setImmediate(resolve));
    last = performance.now();
  };
}
