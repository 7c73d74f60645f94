// First-party plugin: the LanceDB store (`[db] engine = "lancedb"`, ADR 0125): a Lance table folder
// at [db] path with per-connector lock files beside it. @lancedb/lancedb and apache-arrow are optional
// dependencies imported when the store opens: until then the store forwards to the one being opened,
// so opening stays synchronous, and a platform without them gets a config error naming this plugin.
// A path in a bucket (`s3://…`, ADR 0231) takes its sync locks from the store once open (lease objects, ADR 0230).
import {
  definePlugin,
  KbctxError,
  STAGE,
  type StoreConfigSection,
  type ConnectorLocks,
  type OpenedStore,
  DURATION_SCHEMA,
  lazyStore,
} from '../../core/api/plugin.ts';
import { fileLocks } from '../store-sqlite/api.ts';
import { isObjectStorePath, objectStorePaths } from './api.ts';

/**
 * Its `[db]` keys (ADR 0239; here, not in a module of its own: start-up, ADR 0130). `storage_options`: for a `path` in
 * a bucket (`s3://bucket/prefix`, ADR 0231), Lance's storage options as strings (endpoint, region, allow_http,
 * aws_access_key_id, …; the AWS_* variables also apply). `lock_lease`: how long a lock on object storage outlives its
 * holder's last renewal (a kill -9'd writer's, ADR 0230). A path in a bucket implies this engine (ADR 0241).
 */
const dbKeys: StoreConfigSection = {
  label: 'LanceDB',
  remotePath: objectStorePaths,
  schema: {
    type: 'object',
    properties: {
      storage_options: { type: 'object', additionalProperties: { type: 'string' }, default: {} },
      lock_lease: { ...DURATION_SCHEMA, default: 15 },
    },
  },
  toConfig(t, at) {
    const lease = t['lock_lease'] as number;
    if (!(lease > 0)) at.fail('lock_lease', 'must be longer than 0 s (e.g. "15s")');
    return { storageOptions: { ...(t['storage_options'] as Record<string, string>) }, lockLeaseSecs: lease };
  },
};

const plugin = definePlugin({
  name: 'store-lancedb',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['store:lancedb'],
  storeConfigs: { lancedb: dbKeys },
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
