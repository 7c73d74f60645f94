// The store contract suite: every method of the Store interface (store.ts), exercised through the
// interface only, each case on a fresh empty store. Each implementation runs it from its own test
// file (sqlite/sqlite-store.contract.test.ts, postgres/…); a case that fails names the behaviour.
import { describe } from 'node:test';
import type { Store } from '../../../core/store/store.ts';
import { claimCases } from './claims.contract.ts';
import { documentCases } from './documents.contract.ts';
import { embeddingCases } from './embeddings.contract.ts';
import { filterCases } from './filters.contract.ts';
import { indexCases } from './index.contract.ts';
import { keywordCases } from './keyword.contract.ts';
import { lineCases } from './lines.contract.ts';
import { scopeCases } from './scope.contract.ts';
import { vectorCases } from './vectors.contract.ts';

export interface StoreContractOptions {
  /**
   * Opens a second connection to the index `store` lives in (another process or replica). With it,
   * the suite also checks what other connections see (data, checkpoints, generation) and that
   * everything survives close and reopen.
   */
  reopen?: (store: Store) => Promise<Store>;
}

/**
 * Registers the suite under `describe(name)`. `open` must return a new, empty store on every call,
 * also while an earlier one is still open (a case may copy between two stores). Every store a case
 * opens is closed by it.
 */
export function storeContract(name: string, open: () => Promise<Store>, options: StoreContractOptions = {}): void {
  describe(`store contract: ${name}`, () => {
    documentCases(open);
    keywordCases(open);
    lineCases(open);
    filterCases(open);
    scopeCases(open);
    embeddingCases(open);
    claimCases(open, options.reopen);
    vectorCases(open);
    indexCases(open, options.reopen);
  });
}
