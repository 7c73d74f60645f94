// The LanceDB store's keyword postings kept in their own Lance table (ADR 0234) and read per query, so a
// process opens without building them: one `term` row per term (its merged list), `delta` rows written
// since the last merge, one `doc` row per document (its slots and stamp) and one `meta` row (the totals
// and the main table version they reflect). Ranked as KeywordIndex ranks (core's topGroups, FTS5's
// BM25, exact totals); it must not read the main table (the store feeds it documents).
//
// 1. open reads the meta row only. A search reads the rows of its terms missing from a bounded cache
//    (`term IN (...)`, one query), joins each term's base and deltas (slots ascend), skips dead slots,
//    and fills the row lengths and groups topGroups reads from the postings themselves.
// 2. apply() is one merge-insert: new delta rows, the documents' rows, the meta row (postings-changes.ts).
// 3. merge() folds deltas into the term rows and drops dead slots (one merge-insert), then compacts.
// 4. The main table commits first; a crash before apply() leaves `version` behind the main table's, and
//    catchUp() (at a writable open) compares every document's stamp and writes the difference.
import type { Connection, Table } from '@lancedb/lancedb';
import {
  fts5Idf,
  termBounds,
  topGroups,
  type Postings,
  type ScoredTerm,
  type TermBounds,
} from '../store-sqlite/api.ts';
import type { LanceModule } from './lance-module.ts';
import { EMPTY_TOTALS, type DocRecord, type Totals } from './postings-codec.ts';
import {
  docKey,
  META_KEY,
  metaRow,
  planChange,
  stampOf,
  type PostingsChange,
  type PostingsDoc,
} from './postings-changes.ts';
import { joinPart, planMerge, termParts } from './postings-merge.ts';
import { sqlList, sqlString } from './rows.ts';
import { Lru } from './lru.ts';
import { postingsSchema, toArrowTable } from './postings-arrow.ts';

export const POSTINGS_TABLE = 'kb_postings';
/** The most postings the term cache holds (14 bytes each decoded). */
const CACHE_POSTINGS = 4_000_000;
/** The most `doc` rows documents() keeps read (a search's hits name at most its limit). */
const CACHE_DOCS = 20_000;
/** Versions older than this are dropped by merge() (a reader in another process may still be on one). */
const KEEP_VERSIONS_MS = 10_000;
/** merge() is due after this many writes of deltas, or this many postings in them (at the least). */
const MAX_DELTA_WRITES = 256;
const MIN_MERGE = 1_000_000;
/** Indexed columns: `term` for a search's lists, `grp` for its hits' documents (a scan of every row otherwise). */
const INDEXED = ['term', 'grp'] as const;
/** Rows outside those indexes that tidy() leaves (a read scans them: a few ms). */
const MAX_UNINDEXED = 20_000;
/** Documents per commit of a catch-up (as the store's bulk mode groups its writes). */
const CATCH_UP_GROUP = 500;
const NO_BOUNDS: TermBounds = { max: 0, blocks: new Float64Array(0) };
const EMPTY: Postings = { ids: new Int32Array(0), freqs: new Uint16Array(0) };

interface CachedTerm {
  readonly size: number;
  postings: Postings;
  bounds: TermBounds | null;
  boundsFor: number;
}

export interface KeywordHitRow {
  /** The chunk row's slot and its document's group (ties go to the lower group). */
  row: number;
  group: number;
  score: number;
}

/**
 * Whether a merge is due at `t` (PostingsTable.wantsMerge). `bulk`: inside a bulk load, only for the read bound: a
 * fold reads every list into memory, so folding each time the deltas outgrow the merged postings would cost time
 * and memory growing with the table at every doubling of it (ADR 0252); the next write after the load folds.
 */
export function mergeDue(t: Totals, bulk: boolean): boolean {
  if (t.deltaWrites >= MAX_DELTA_WRITES) return true;
  return !bulk && t.deltaPostings + t.dead.length > Math.max(t.basePostings, MIN_MERGE);
}

export async function openPostingsTable(
  db: Connection,
  lance: LanceModule,
  name = POSTINGS_TABLE,
): Promise<PostingsTable> {
  const table = (await db.tableNames()).includes(name)
    ? await db.openTable(name)
    : await db.createEmptyTable(name, postingsSchema(), { existOk: true });
  const postings = new PostingsTable(table, lance);
  await postings.refresh();
  return postings;
}

export class PostingsTable {
  private readonly table: Table;
  private readonly lance: LanceModule;
  private totals: Totals = EMPTY_TOTALS;
  private metaText = '';
  /**
   * The table version the meta row was last read at or written in (-1: unknown); refresh() reads it only when moved.
   */
  private metaVersion = -1;
  private dead = new Set<number>();
  // A list weighs its postings plus one, so cached empty lists count too.
  private readonly cache = new Lru<CachedTerm>(CACHE_POSTINGS, (list) => list.size + 1);
  private readonly docCache = new Map<number, { id: string; record: DocRecord }>();
  private lengths = new Int32Array(1024);
  private groups = new Int32Array(1024).fill(-1);

  constructor(table: Table, lance: LanceModule) {
    this.table = table;
    this.lance = lance;
  }

  /** Live chunk rows (N), their token total, and the main table version the postings reflect. */
  get size(): number {
    return this.totals.rows;
  }
  get totalLength(): number {
    return this.totals.totalLength;
  }
  get version(): number {
    return this.totals.version;
  }

  /**
   * Reads the meta row unless the table's version is the one it was read at (the row is found by a scan of
   * `row_key`, whose cost grows with the table: ADR 0252); when another commit moved it, forgets the cached lists.
   * Returns whether it moved.
   */
  async refresh(): Promise<boolean> {
    const version = await this.table.version();
    if (version === this.metaVersion) return false;
    const rows = await this.table
      .query()
      .where(`row_key = ${sqlString(META_KEY)}`)
      .select(['info'])
      .toArray();
    const text = (rows[0]?.['info'] as string | undefined) ?? '';
    this.metaVersion = version;
    if (text === this.metaText) return false;
    this.adopt(text === '' ? EMPTY_TOTALS : (JSON.parse(text) as Totals), text);
    return true;
  }

  private adopt(totals: Totals, text: string): void {
    this.totals = totals;
    this.metaText = text;
    this.dead = new Set(totals.dead);
    this.cache.clear();
    this.docCache.clear();
  }

  /** Chunk rows holding each term (FTS5's document frequency). */
  async docFreq(terms: readonly string[]): Promise<Map<string, number>> {
    const lists = await this.lists(terms);
    return new Map(terms.map((t) => [t, lists.get(t)?.postings.ids.length ?? 0]));
  }

  /** The best row of each of the best `limit` groups `allow` lets through; positive BM25 (as KeywordIndex.search). */
  async search(
    terms: readonly string[],
    limit: number,
    allow?: (group: number) => boolean,
  ): Promise<{ hits: KeywordHitRow[]; scored: number }> {
    const lists = await this.lists(terms);
    const rows = {
      lengths: this.lengths,
      groups: this.groups,
      avgLength: this.totals.rows > 0 ? this.totals.totalLength / this.totals.rows : 1,
    };
    const scored: ScoredTerm[] = terms.map((term) => {
      const list = lists.get(term);
      if (!list) return { postings: EMPTY, idf: fts5Idf(this.totals.rows, 0), bounds: NO_BOUNDS };
      if (list.bounds === null || list.boundsFor !== rows.avgLength) {
        list.bounds = termBounds(list.postings, rows);
        list.boundsFor = rows.avgLength;
      }
      return { postings: list.postings, idf: fts5Idf(this.totals.rows, list.size), bounds: list.bounds };
    });
    return topGroups(rows, scored, limit, allow);
  }

  /** The documents of groups (hits): id and record (its slots with their chunk seqs); kept until the next commit. */
  async documents(groups: readonly number[]): Promise<Map<number, { id: string; record: DocRecord }>> {
    const out = new Map<number, { id: string; record: DocRecord }>();
    const missing = groups.filter((g) => {
      const hit = this.docCache.get(g);
      if (hit) out.set(g, hit);
      return !hit;
    });
    if (missing.length === 0) return out;
    const rows = await this.table
      .query()
      .where(`kind = 'doc' AND grp IN (${missing.map((g) => Math.trunc(g)).join(', ')})`)
      .select(['doc_id', 'grp', 'info'])
      .toArray();
    if (this.docCache.size + rows.length > CACHE_DOCS) this.docCache.clear();
    for (const r of rows) {
      const doc = { id: r['doc_id'] as string, record: JSON.parse(r['info'] as string) as DocRecord };
      out.set(r['grp'] as number, doc);
      this.docCache.set(r['grp'] as number, doc);
    }
    return out;
  }

  /** The groups of documents (by id; absent ones left out): a filter's allowed documents as `allow` takes them. */
  async groupsOf(ids: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (let i = 0; i < ids.length; i += 1000) {
      const rows = await this.table
        .query()
        .where(`row_key IN ${sqlList(ids.slice(i, i + 1000).map(docKey))}`)
        .select(['doc_id', 'grp'])
        .toArray();
      for (const r of rows) out.set(r['doc_id'] as string, r['grp'] as number);
    }
    return out;
  }

  private async lists(terms: readonly string[]): Promise<Map<string, CachedTerm>> {
    const out = new Map<string, CachedTerm>();
    const missing = new Set<string>();
    for (const t of terms) {
      const hit = this.cache.get(t);
      if (hit) out.set(t, hit);
      else missing.add(t);
    }
    if (missing.size === 0) return out;
    const rows = await this.table
      .query()
      .where(`kind IN ('term', 'delta') AND term IN ${sqlList([...missing])}`)
      .select(['kind', 'term', 'data'])
      .toArray();
    const parts = termParts(rows);
    this.grow(this.totals.nextSlot);
    // A term the table lacks is cached too (empty): a query naming it would otherwise read it every time.
    for (const term of missing) {
      const part = parts.get(term);
      const list = part
        ? joinPart(part, this.dead)
        : { slots: EMPTY.ids, freqs: EMPTY.freqs, lengths: EMPTY.ids, groups: EMPTY.ids };
      for (let i = 0; i < list.slots.length; i++) {
        this.lengths[list.slots[i]!] = list.lengths[i]!;
        this.groups[list.slots[i]!] = list.groups[i]!;
      }
      const cached = {
        size: list.slots.length,
        postings: { ids: list.slots, freqs: list.freqs },
        bounds: null,
        boundsFor: -1,
      };
      this.cache.set(term, cached);
      out.set(term, cached);
    }
    return out;
  }

  private grow(slots: number): void {
    if (slots <= this.lengths.length) return;
    let n = this.lengths.length;
    while (n < slots) n *= 2;
    const lengths = new Int32Array(n);
    lengths.set(this.lengths);
    const groups = new Int32Array(n).fill(-1);
    groups.set(this.groups);
    this.lengths = lengths;
    this.groups = groups;
  }

  // ---- writing (callers serialise them, under the store's write lock) ----

  /** Writes a change as one commit and records `version` (the main table's version it reflects). */
  async apply(change: PostingsChange, version: number): Promise<void> {
    await this.refresh();
    const ids = [...new Set([...change.put.map((d) => d.id), ...change.remove])];
    // Appended documents have no record (a `row_key IN` read is a scan of the table).
    const records = change.appended && change.remove.length === 0 ? new Map() : await this.records(ids);
    const plan = planChange(change, records, { ...this.totals, version });
    let merge = this.table.mergeInsert('row_key').whenMatchedUpdateAll().whenNotMatchedInsertAll();
    if (plan.removed.length > 0)
      merge = merge.whenNotMatchedBySourceDelete({ where: `kind = 'doc' AND doc_id IN ${sqlList(plan.removed)}` });
    const made = await merge.execute(toArrowTable(plan.rows));
    const meta = plan.rows[plan.rows.length - 1]!;
    this.adopt(plan.totals, meta.info!);
    this.metaVersion = made.version;
  }

  /**
   * Whether merge() is due: deltas and dead slots past the merged postings (so, as the table grows,
   * each posting is rewritten about twice on average), or MAX_DELTA_WRITES writes of deltas (a term's
   * read joins at most that many delta rows).
   */
  wantsMerge(bulk = false): boolean {
    return mergeDue(this.totals, bulk);
  }

  /**
   * Folds delta rows into term rows and drops dead slots (one commit), then compacts the table's files (Lance's
   * optimize, which also brings the `term` and `grp` indexes up to date; they are created here the first time).
   */
  async merge(): Promise<void> {
    await this.refresh();
    const totals = this.totals;
    if (totals.deltaPostings > 0 || totals.dead.length > 0) await this.fold(totals);
    if (totals.rows === 0) return;
    await this.createIndexes();
  }

  /**
   * Brings the `term` and `grp` indexes over the rows written since they were last updated once more than
   * MAX_UNINDEXED are outside them (Lance's optimize: compaction, old versions, the indexes; they are created
   * here if missing). A read scans every unindexed row for its terms (tens of ms at 52k documents after a
   * bulk sync), so the store calls this at the end of a sync (its compact()). Returns whether it wrote.
   */
  async tidy(maxUnindexed = MAX_UNINDEXED): Promise<boolean> {
    if (this.totals.rows === 0) return false;
    if (await this.createIndexes()) return true;
    const behind = await Promise.all(INDEXED.map((c) => this.table.indexStats(`${c}_idx`)));
    if (!behind.some((s) => (s?.numUnindexedRows ?? 0) > maxUnindexed)) return false;
    await this.table.optimize({ cleanupOlderThan: new Date(Date.now() - KEEP_VERSIONS_MS) });
    return true;
  }

  /** Creates the indexes a read uses when missing (they then cover every row); returns whether it created one. */
  private async createIndexes(): Promise<boolean> {
    const indexed = new Set((await this.table.listIndices()).flatMap((i) => i.columns));
    const missing = INDEXED.filter((c) => !indexed.has(c));
    for (const column of missing) await this.table.createIndex(column, { config: this.lance.lancedb.Index.btree() });
    return missing.length > 0;
  }

  private async fold(totals: Totals): Promise<void> {
    const rows = await this.table.query().where(`kind IN ('term', 'delta')`).select(['kind', 'term', 'data']).toArray();
    const { written, emptied, next } = planMerge(rows, this.dead, totals);
    let where = `kind = 'delta'`;
    if (emptied.length > 0) where += ` OR (kind = 'term' AND term IN ${sqlList(emptied)})`;
    const meta = metaRow(next);
    await this.table
      .mergeInsert('row_key')
      .whenMatchedUpdateAll()
      .whenNotMatchedInsertAll()
      .whenNotMatchedBySourceDelete({ where })
      .execute(toArrowTable([...written, meta]));
    this.adopt(next, meta.info!);
    await this.table.optimize({ cleanupOlderThan: new Date(Date.now() - KEEP_VERSIONS_MS) });
  }

  /**
   * Makes the postings equal to `truth` (every document of the main table at `version`, read batch by
   * batch) by writing only the documents whose stamp differs, CATCH_UP_GROUP per commit, and removing
   * the ones it lacks; only the last commit records `version`, so a catch-up cut short is resumed by
   * the next one. Also the first build of an index written before this table. Returns the documents
   * written.
   */
  async catchUp(
    truth: Iterable<PostingsDoc> | AsyncIterable<PostingsDoc>,
    version: number,
    group = CATCH_UP_GROUP,
  ): Promise<number> {
    await this.refresh();
    const behind = this.totals.version;
    const stamps = await this.stamps();
    let put: PostingsDoc[] = [];
    let written = 0;
    for await (const doc of truth) {
      const stamp = stamps.get(doc.id);
      stamps.delete(doc.id);
      if (stamp !== stampOf(doc)) put.push(doc);
      if (put.length < group) continue;
      await this.apply({ put, remove: [] }, behind);
      written += put.length;
      put = [];
      if (this.wantsMerge()) await this.merge();
    }
    const remove = [...stamps.keys()];
    if (put.length === 0 && remove.length === 0 && version === this.totals.version) return written;
    await this.apply({ put, remove }, version);
    return written + put.length + remove.length;
  }

  /** What catchUp() would write, without writing (doctor): documents whose postings differ, and extra ones. */
  async differences(
    truth: Iterable<PostingsDoc> | AsyncIterable<PostingsDoc>,
  ): Promise<{ differ: string[]; extra: string[] }> {
    const stamps = await this.stamps();
    const differ: string[] = [];
    for await (const doc of truth) {
      if (stamps.get(doc.id) !== stampOf(doc)) differ.push(doc.id);
      stamps.delete(doc.id);
    }
    return { differ, extra: [...stamps.keys()] };
  }

  private async stamps(): Promise<Map<string, string>> {
    const stamps = new Map<string, string>();
    const rows = await this.table.query().where(`kind = 'doc'`).select(['doc_id', 'info']).toArray();
    for (const r of rows) stamps.set(r['doc_id'] as string, (JSON.parse(r['info'] as string) as DocRecord).stamp);
    return stamps;
  }

  private async records(ids: readonly string[]): Promise<Map<string, DocRecord>> {
    const out = new Map<string, DocRecord>();
    if (ids.length === 0) return out;
    const rows = await this.table
      .query()
      .where(`row_key IN ${sqlList(ids.map(docKey))}`)
      .select(['doc_id', 'info'])
      .toArray();
    for (const r of rows) out.set(r['doc_id'] as string, JSON.parse(r['info'] as string) as DocRecord);
    return out;
  }
}
