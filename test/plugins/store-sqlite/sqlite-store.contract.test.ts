// Runs the store contract suite against SqliteStore: a file per case in a temp folder, with the
// default keyword engine (postings) and once with FTS5 ranking every match.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import { storeContract } from '../../contract/store/store.contract.ts';
import { openSqliteStore, type OpenSqliteStoreOptions } from '../../../plugins/store-sqlite/sqlite-store.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'kbctx-contract-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

for (const keywordEngine of ['postings', 'fts5'] as const) {
  const options: OpenSqliteStoreOptions = { keywordEngine };
  storeContract(
    `sqlite (${keywordEngine})`,
    () => Promise.resolve(openSqliteStore(path.join(dir, `index-${files++}.sqlite`), options)),
    {
      reopen: (store) => Promise.resolve(openSqliteStore(store.path, options)),
    },
  );
}
