// Runs the store contract suite against LanceStore: a table folder per case in a temp folder;
// `reopen` opens a second store on the same folder (another process's view).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import { storeContract } from '../../contract/store/store.contract.ts';
import { openLanceStore } from '../../../plugins/store-lancedb/lance-store.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'kbctx-lance-contract-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let folders = 0;

storeContract('lancedb', () => openLanceStore(path.join(dir, `index-${folders++}.lance`)), {
  reopen: (store) => openLanceStore(store.path),
});
