// First-party plugin: the PostgreSQL store shared by replicas (`[db] engine = "postgres"`, implied by
// [db] url; ADR 0111). The driver is imported only when this store is opened: until then the store
// forwards to the one being opened, so opening stays synchronous.
import {
  definePlugin,
  STAGE,
  type StoreConfigSection,
  type OpenedStore,
  lazyLocks,
  lazyStore,
  requireOwn,
} from '../../core/api/plugin.ts';
import { localStoreService } from '../store-sqlite/api.ts';
// Required when a PostgreSQL store opens, not with this index (start-up, ADR 0130).
import type * as RedactUrl from './redact-url.ts';

/**
 * `[db] pool_size` (ADR 0239): connections per replica. A postgres:// `[db] url` implies this engine, which needs one
 * (ADR 0241). Here, not in a module of its own (start-up, ADR 0130).
 */
const dbKeys: StoreConfigSection = {
  label: 'PostgreSQL',
  localPath: "PostgreSQL's mirror",
  url: {
    schemes: ['postgres:', 'postgresql:'],
    example: 'postgres://user:password@host:5432/database',
    kind: 'a PostgreSQL database',
  },
  schema: { type: 'object', properties: { pool_size: { type: 'integer', minimum: 1, maximum: 1000, default: 10 } } },
  toConfig: (t) => ({ poolSize: t['pool_size'] }),
};

const plugin = definePlugin({
  name: 'store-postgres',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['store:postgres'],
  storeConfigs: { postgres: dbKeys },
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    kernel.hooks.createStore
      .for('postgres')
      .tap({ name: 'store-postgres', stage: STAGE.FALLBACK }, (options): OpenedStore | undefined => {
        const { url } = options;
        if (url === null) return undefined; // the config loader requires a url for this engine
        const shown = requireOwn<typeof RedactUrl>(import.meta.url, './redact-url.ts').redactUrl(url);
        // The read mirror is a local store from the plugin providing `kbctx.local-store` (store-sqlite),
        // looked up when the store opens it.
        const openMirror = (file: string) =>
          kernel.use(localStoreService)(file, { keywordEngine: options.keywordEngine });
        const opening = Promise.all([import('./pg-store.ts'), import('./mirror-path.ts')]).then(
          ([{ openPostgresStore }, { mirrorPathFor }]) =>
            openPostgresStore(url, {
              mirrorPath: mirrorPathFor(options.path, shown),
              poolSize: options.poolSize,
              openMirror,
            }),
        );
        return {
          store: lazyStore(opening, shown),
          locks: lazyLocks(opening),
          label: 'PostgreSQL',
          schemaVersion: async () => (await import('./migrations.ts')).PG_SCHEMA_VERSION,
        };
      });
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
