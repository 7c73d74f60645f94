// Runs the store contract suite against SqliteStore: a file per case in a temp folder, with the
// default keyword engine (postings) and once with FTS5 ranking every match.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import { STATS_AFTER_DELETE } from '../contract/keyword.contract.ts';
import { storeContract } from '../store.contract.ts';
import { openSqliteStore, type OpenSqliteStoreOptions } from './sqlite-store.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'kbctx-contract-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

for (const keywordEngine of ['postings', 'fts5'] as const) {
  const options: OpenSqliteStoreOptions = { keywordEngine };
  storeContract(`sqlite (${keywordEngine})`, () => Promise.resolve(openSqliteStore(path.join(dir, `index-${files++}.sqlite`), options)), {
    reopen: (store) => Promise.resolve(openSqliteStore(store.path, options)),
    // FTS5 contentless_delete tables delete by tombstone and never lower their BM25 totals (row count,
    // column sizes): after deletes, scores differ from a fresh index until the table is rebuilt.
    todo: { [STATS_AFTER_DELETE]: 'FTS5 contentless_delete keeps deleted rows in its BM25 totals' },
  });
}
