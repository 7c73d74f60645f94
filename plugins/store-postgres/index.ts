// First-party plugin: the PostgreSQL store shared by replicas (`[db] engine = "postgres"`, implied by
// [db] url; ADR 0111). The driver is imported only when this store is opened: until then the store
// forwards to the one being opened, so opening stays synchronous.
import {
  definePlugin,
  STAGE,
  type OpenedStore,
  lazyLocks,
  lazyStore,
  localStoreService,
  redactUrl,
} from '../../core/api/plugin.ts';

const plugin = definePlugin({
  name: 'store-postgres',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['store:postgres'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    kernel.hooks.createStore
      .for('postgres')
      .tap({ name: 'store-postgres', stage: STAGE.FALLBACK }, (options): OpenedStore | undefined => {
        const { url } = options;
        if (url === null) return undefined; // the config loader requires a url for this engine
        const shown = redactUrl(url);
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
