// Runs the store contract suite against PgStore on a real PostgreSQL (test/helpers/postgres.ts): a new
// database per case, each store with its own in-memory mirror; `reopen` opens a second replica.
import { openSqliteStore } from '../../../plugins/store-sqlite/sqlite-store.ts';
import type { Store } from '../../../core/index.ts';
import { after } from 'node:test';
import { sharedPostgres, stopSharedPostgres } from '../../helpers/postgres.ts';
import { storeContract } from '../../contract/store/store.contract.ts';
import { openPostgresStore } from '../../../plugins/store-postgres/pg-store.ts';

after(() => stopSharedPostgres());
const urls = new WeakMap<Store, string>();
const openAt = (url: string): Store => {
  const store = openPostgresStore(url, { openMirror: (f) => openSqliteStore(f), mirrorPath: ':memory:' });
  urls.set(store, url);
  return store;
};

storeContract('postgres', async () => openAt(await (await sharedPostgres()).createDatabase()), {
  reopen: (store) => Promise.resolve(openAt(urls.get(store)!)),
});
