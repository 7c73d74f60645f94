// First-party plugin: the SQLite store (`[db] engine = "sqlite"`, the default): one file at
// [db] path and its lock files. Opening is synchronous, so node:sqlite is imported with the plugin.
import { definePlugin, STAGE } from '../../core/api/plugin.ts';
import { localStoreService, sqliteDbKeys } from './api.ts';
import { fileLocks } from './file-locks.ts';
import { SCHEMA_VERSION } from './migrations.ts';
import { openSqliteStore } from './sqlite-store.ts';

const plugin = definePlugin({
  name: 'store-sqlite',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['store:sqlite'],
  storeConfigs: { sqlite: sqliteDbKeys },
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    kernel.provide(localStoreService, (file, { keywordEngine }) => openSqliteStore(file, { keywordEngine }));
    kernel.hooks.createStore.for('sqlite').tap({ name: 'store-sqlite', stage: STAGE.FALLBACK }, (options) => ({
      store: openSqliteStore(options.path, { keywordEngine: options.keywordEngine, access: options.access }),
      locks: fileLocks(options.path),
      label: 'SQLite',
      schemaVersion: () => SCHEMA_VERSION,
    }));
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
