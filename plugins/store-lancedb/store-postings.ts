// The LanceDB store's keyword postings kept in step with its main table (ADR 0234): opened (and caught up
// after a gap) at open, written after each of the store's commits under its write lock, and moved along
// by the store's writes that change no document. Must not write the main table; the store commits first.
//
// 1. open: a writable open creates the postings table if missing and, when its version is not the main
//    table's, catches it up by stamps under the write lock; a read-only open takes it only if present.
// 2. keep(): after a commit of ours, under its write lock, writes the documents it put and removed and
//    records its version when the postings were at the version before it; otherwise (a gap) writes the
//    change only, and the next writable open catches up.
// 3. keeping(): a write that changes no document (compaction, a vector index) moves the version along.
// 4. tidyIndexes() (a sync's end): the indexes a keyword search reads through, brought up to date (ADR 0245).
import type { Connection, Table } from '@lancedb/lancedb';
import { KbctxError } from '../../core/api/plugin.ts';
import { loadLance } from './lance-module.ts';
import { addPrefilterIndexes } from './vector-index.ts';
import { postingsKeywordSource, type KeywordSource } from './keyword-source.ts';
import { openPostingsTable, POSTINGS_TABLE, type PostingsTable } from './postings-table.ts';
import type { PostingsChange } from './postings-changes.ts';
import { chunkDocuments } from './postings-source.ts';
import type { TablePlace } from './table-place.ts';
import type { PostingsCheck } from './integrity.ts';

const NO_CHANGE: PostingsChange = { put: [], remove: [] };

export class StorePostings {
  /** The postings table (null: a read-only index written before it, ADR 0234). */
  readonly table: PostingsTable | null;
  private readonly keyword: KeywordSource | null;
  private readonly main: Table;
  private readonly place: TablePlace;
  private readonly writable: boolean;

  private constructor(table: PostingsTable | null, main: Table, place: TablePlace, writable: boolean) {
    this.table = table;
    this.main = main;
    this.place = place;
    this.writable = writable;
    this.keyword = table ? postingsKeywordSource(table) : null;
  }

  /** Opens (a writable open: creates, and catches up) the postings of the main table `main` in `db`. */
  static async open(db: Connection, main: Table, place: TablePlace, readOnly: string | null): Promise<StorePostings> {
    if (readOnly !== null && !(await db.tableNames()).includes(POSTINGS_TABLE))
      return new StorePostings(null, main, place, false);
    const postings = await openPostingsTable(db, await loadLance());
    const out = new StorePostings(postings, main, place, readOnly === null);
    if (readOnly !== null || postings.version === (await main.version())) return out;
    await place.withWriteLock(async () => {
      const version = await main.version();
      await postings.refresh();
      if (postings.version === version) return;
      await postings.catchUp(chunkDocuments(main), version);
      if (postings.wantsMerge()) await postings.merge();
    });
    return out;
  }

  /**
   * After a commit of ours that made `version`, under its write lock (see 2 above). `bulk`: inside a bulk load, where
   * deltas are folded only when a read would join too many of them (postings-table.ts's wantsMerge, ADR 0252).
   */
  async keep(change: PostingsChange | null, version: number, bulk = false): Promise<void> {
    const postings = this.table;
    if (!postings || !this.writable) return;
    await postings.refresh();
    const current = postings.version === version - 1;
    if (!change && !current) return;
    // Records of appended documents are known to be absent only when the postings are at the version before.
    const written = change && !current ? { ...change, appended: false } : (change ?? NO_CHANGE);
    await postings.apply(written, current ? version : postings.version);
    if (postings.wantsMerge(bulk)) await postings.merge();
  }

  /** Runs a write of ours that changes no document (compaction, a vector index); the postings' version follows. */
  async keeping<T>(run: () => Promise<T>): Promise<T> {
    const postings = this.table;
    if (!postings || !this.writable) return run();
    await postings.refresh();
    const start = await this.main.version();
    const current = postings.version === start;
    const out = await run();
    if (current)
      await this.place.withWriteLock(async () => {
        await postings.refresh();
        if (postings.version === start) await postings.apply(NO_CHANGE, await this.main.version());
      });
    return out;
  }

  /**
   * The indexes keyword search reads through (ADR 0245): the postings' brought over the rows written since
   * (postings-table.ts's tidy()), and a BTREE on the main table's `doc_id` for row-reader.ts (never on `row_key`,
   * the merge key: lancedb#3177); the main table's optimize in the store's compact() keeps it current. Creating
   * that index commits a version of the main table with the same rows, inside keeping() (the postings' version
   * follows it, or the next open would see a gap and catch up). Returns the main table's versions before and
   * after it (null: nothing to do); the caller serialises it with its other writes.
   */
  async tidyIndexes(): Promise<{ before: number; after: number } | null> {
    const postings = this.table;
    if (!postings || !this.writable) return null;
    await this.place.withWriteLock(() => postings.tidy());
    if ((await this.main.countRows()) === 0) return null;
    const lance = await loadLance();
    const before = await this.main.version();
    await this.keeping(() =>
      this.place.withWriteLock(() => addPrefilterIndexes(lance, this.main, [{ column: 'doc_id', index: 'btree' }])),
    );
    return { before, after: await this.main.version() };
  }

  /**
   * The postings' reader, caught up to `knownVersion` (another process's postings commit follows its main
   * one: a read between the two is caught up here), or a clear error for a read-only index written before
   * the postings table (ADR 0234).
   */
  async source(knownVersion: number, path: string, readOnly: string | null): Promise<KeywordSource> {
    if (this.table && this.keyword) {
      if (this.table.version < knownVersion) await this.table.refresh();
      return this.keyword;
    }
    throw new KbctxError(
      'unavailable',
      `the LanceDB index at ${path} has no keyword postings table (it was written before kbctx kept one) and ` +
        `is opened read-only (${readOnly}); run any writing command (\`kbctx sync all\`) once with write ` +
        'access to build it',
      { details: { index: 'keyword_postings_missing' } },
    );
  }

  /** The postings compared with the main table's documents read afresh (doctor); null without a postings table. */
  async check(): Promise<PostingsCheck | null> {
    const postings = this.table;
    if (!postings) return null;
    await postings.refresh();
    return { rows: postings.size, ...(await postings.differences(chunkDocuments(this.main))) };
  }
}
