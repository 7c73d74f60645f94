// First-party plugin: the LanceDB store (`[db] engine = "lancedb"`, ADR 0125): a Lance table folder
// at [db] path with per-connector lock files beside it. @lancedb/lancedb and apache-arrow are optional
// dependencies imported when the store opens: until then the store forwards to the one being opened,
// so opening stays synchronous, and a platform without them gets a config error naming this plugin.
// A path in a bucket (`s3://…`, ADR 0231) takes its sync locks from the store once open (lease objects, ADR 0230).
import {
  definePlugin,
  KbctxError,
  STAGE,
  type ConnectorLocks,
  type OpenedStore,
  fileLocks,
  isObjectStorePath,
  lazyStore,
} from '../../core/api/plugin.ts';

const plugin = definePlugin({
  name: 'store-lancedb',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['store:lancedb'],
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      // ADR 0229, 0235: vectors in a space before Lance's ANN index is built (2000), and its kind (ivf_rq).
      // No `default` keywords: a schema with none is not compiled when the section is absent (start-up
      // stays without ajv); vector-index.ts holds the defaults.
      vector_index_threshold: { type: 'integer', minimum: 1 },
      vector_index: { enum: ['ivf_rq', 'ivf_hnsw_sq', 'ivf_pq'] },
    },
  },
  apply(kernel, options: { vector_index_threshold?: number; vector_index?: 'ivf_rq' | 'ivf_hnsw_sq' | 'ivf_pq' }) {
    const vectorIndex = { threshold: options.vector_index_threshold, kind: options.vector_index };
    kernel.hooks.createStore
      .for('lancedb')
      .tap({ name: 'store-lancedb', stage: STAGE.FALLBACK }, (options): OpenedStore => {
        const opening = import('./lance-store.ts').then(({ openLanceStore }) =>
          openLanceStore(
            options.path,
            options.access,
            { storageOptions: options.storageOptions, lockLeaseSecs: options.lockLeaseSecs },
            vectorIndex,
          ),
        );
        const bucketLocks = async (): Promise<ConnectorLocks> => {
          const locks = (await opening).connectorLocks();
          if (!locks)
            throw new KbctxError(
              'unavailable',
              `${options.path}: kbctx takes sync locks only in s3:// buckets (ADR 0230); this index is read-only here`,
            );
          return locks;
        };
        return {
          store: lazyStore(opening, options.path),
          locks: isObjectStorePath(options.path)
            ? {
                acquire: async (label, owner) => (await bucketLocks()).acquire(label, owner),
                wait: async (label, owner, wait) => (await bucketLocks()).wait(label, owner, wait),
              }
            : fileLocks(options.path),
          label: 'LanceDB',
          schemaVersion: async () => (await import('./rows.ts')).SCHEMA_VERSION,
        };
      });
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
