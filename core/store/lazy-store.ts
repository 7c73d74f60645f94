// A Store that forwards to one being opened: commands on the SQLite default never load the
// PostgreSQL driver (CLI start-up, ADR 0072), and openKbctx stays synchronous. Every data method
// awaits the real store; generation() answers 'opening' until it is there.
import type { ConnectorLocks, Store } from './store.ts';

const ITERATORS = new Set(['iterateDocuments', 'iterateChunks', 'iterateEmbeddings']);

export function lazyStore(opening: Promise<Store>, path: string): Store {
  let real: Store | null = null;
  const ready = opening.then((store) => (real = store));
  ready.catch(() => undefined); // the failure is reported by the first call that awaits it
  const target = { path } as Store;
  return new Proxy(target, {
    get(_target, prop: string | symbol) {
      if (prop === 'path') return real ? real.path : path; // the opened store's own name once there
      if (prop === 'then') return undefined; // not a thenable: `await store` must not wait on it
      if (prop === 'generation') return () => (real ? real.generation() : 'opening');
      if (typeof prop === 'symbol') return undefined;
      // A store that failed to open has nothing to close: its failure was the first call's to report.
      if (prop === 'close') return async () => (await ready.catch(() => null))?.close();
      if (ITERATORS.has(prop)) {
        return async function* (...args: unknown[]) {
          const store = (await ready) as unknown as Record<string, (...a: unknown[]) => AsyncIterable<unknown>>;
          yield* store[prop]!(...args);
        };
      }
      return async (...args: unknown[]) => {
        const store = (await ready) as unknown as Record<string, ((...a: unknown[]) => Promise<unknown>) | undefined>;
        const method = store[prop];
        if (typeof method !== 'function') return undefined; // an optional method the store lacks (checkIntegrity)
        return method.apply(store, args);
      };
    },
  });
}

/** The connector locks of a store being opened: each call waits for it. */
export function lazyLocks(opening: Promise<{ locks: ConnectorLocks }>): ConnectorLocks {
  return {
    acquire: async (label, owner) => (await opening).locks.acquire(label, owner),
    wait: async (label, owner, options) => (await opening).locks.wait(label, owner, options),
  };
}
