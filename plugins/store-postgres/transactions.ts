// Write transactions for the PostgreSQL store, and the change feed's write side.
//
// Every write transaction, before it changes anything: takes pg_advisory_xact_lock(WRITE_LOCK_KEY) (one
// writer at a time across replicas, so version order is commit order and a reader's watermark never
// skips a late commit), draws one value of kbctx_version and records it as kbctx_meta.version (the
// committed high-water mark the heartbeat reads) and in kbctx_commits with a random token (the history
// mirrors check), and queues pg_notify (delivered at commit).
// Writes of this store are serialised (one connection at a time). In bulk mode units are SAVEPOINTs in
// a group committed every GROUP_MAX_UNITS units or GROUP_MAX_MS, like the SQLite store's unit of work.
//
// Round trips (ADR 0111, "Write path performance"): opening takes one (BEGIN, the lock, then version,
// commit record and notification); a group keeps one savepoint open, renewed in one round trip only
// when needed (unit()). In bulk mode, batchable writes (documents) queued while the connection
// is busy share one statement; when it fails, the savepoint is rolled back and each write runs alone, so
// every write is still atomic on its own and fails alone.
import { KbctxError } from '../../core/api/plugin.ts';
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { CHANNEL, WRITE_LOCK_KEY } from './keys.ts';
import { connect, isUnreachable, toKbctxError } from './pool.ts';

const GROUP_MAX_UNITS = 500;
const GROUP_MAX_MS = 250;
/** Writes per shared statement at most. */
const BATCH_MAX = 64;
/** Replayable units (see unit()) between savepoint renewals at most. */
const REPLAY_MAX = 32;

/**
 * Opens a write transaction in one round trip (simple protocol, so no parameters: the lock key and
 * channel are constants and the token a UUID): lock first, then stamp, record and notify.
 */
function openSql(token: string, savepoint: boolean): string {
  if (!/^\d+$/.test(WRITE_LOCK_KEY) || !/^[a-z_]+$/.test(CHANNEL) || !/^[0-9a-f-]+$/.test(token))
    throw new Error('unsafe constant in openSql');
  return `BEGIN; SELECT pg_advisory_xact_lock(${WRITE_LOCK_KEY});
    WITH v AS (UPDATE kbctx_meta SET version = nextval('kbctx_version') WHERE id = 1 RETURNING version),
      c AS (INSERT INTO kbctx_commits (version, token) SELECT version, '${token}' FROM v)
    SELECT version::text AS version, pg_notify('${CHANNEL}', version::text) FROM v;${
      savepoint ? ' SAVEPOINT kbctx_unit;' : ''
    }`;
}
const RENEW = 'RELEASE SAVEPOINT kbctx_unit; SAVEPOINT kbctx_unit';

export interface WriteTx {
  client: pg.PoolClient;
  /** The version stamped on every row this transaction changes (a bigint as text). */
  version: string;
}

interface Group extends WriteTx {
  units: number;
  openedAt: number;
  timer: NodeJS.Timeout | null;
  /** Replayable units applied since the savepoint, in order. */
  replays: ((tx: WriteTx) => Promise<unknown>)[];
  /** A unit that cannot be replayed was applied since the savepoint: renew it before the next unit. */
  opaque: boolean;
}

/** Writes of one kind that one call can apply together, e.g. writer.upsertDocuments. */
export interface BatchKind<I, O> {
  /** Applies the items (whose keys differ) in order; one result per item. */
  apply(tx: WriteTx, items: readonly I[]): Promise<O[]>;
  /** Items with equal keys never share a call. */
  key(item: I): string;
}

interface Pending {
  kind: BatchKind<unknown, unknown>;
  items: unknown[];
  keys: Set<string>;
  settle: { resolve: (value: unknown) => void; reject: (error: unknown) => void }[];
}

export class PgTransactions {
  private readonly pool: pg.Pool;
  private readonly url: string;
  private queue: Promise<unknown> = Promise.resolve();
  private bulk = 0;
  private group: Group | null = null;
  /** The batch queued last, not yet started: later writes of its kind join it. */
  private pending: Pending | null = null;
  /**
   * Why a bulk group whose earlier units had already succeeded was lost (its commit failed, or it was
   * abandoned): those writes are gone, so every later write of this bulk run fails with it, and so does
   * endBulk — a later group must never commit a checkpoint over documents that were not written.
   */
  private lost: unknown = null;

  constructor(pool: pg.Pool, url: string) {
    this.pool = pool;
    this.url = url;
  }

  /** Runs `fn` atomically: its own transaction, or a savepoint in the open bulk group. */
  run<T>(fn: (tx: WriteTx) => Promise<T>): Promise<T> {
    if (this.lost !== null && this.bulk > 0) return Promise.reject(this.lostError());
    // Decided when queued: a write queued in bulk mode goes into the group, which the end of bulk mode
    // commits after it (run alone, it would wait for the write lock the open group holds).
    const inBulk = this.bulk > 0;
    return this.serial(() => (inBulk ? this.unit(fn) : this.alone(fn)));
  }

  /**
   * Runs one write of a batchable kind; in bulk mode it shares a statement with the writes of its kind
   * queued right after it while the connection was busy (each still atomic: see the header).
   */
  runBatched<I, O>(kind: BatchKind<I, O>, item: I): Promise<O> {
    if (this.bulk === 0) return this.run(async (tx) => (await kind.apply(tx, [item]))[0]!);
    if (this.lost !== null) return Promise.reject(this.lostError());
    const key = kind.key(item);
    let batch = this.pending;
    if (!batch || batch.kind !== kind || batch.keys.has(key) || batch.items.length >= BATCH_MAX) {
      const fresh: Pending = { kind: kind as BatchKind<unknown, unknown>, items: [], keys: new Set(), settle: [] };
      void this.serial(() => this.runPending(fresh)).catch(() => undefined);
      this.pending = batch = fresh;
    }
    batch.items.push(item);
    batch.keys.add(key);
    return new Promise<O>((resolve, reject) =>
      batch.settle.push({ resolve: resolve as (value: unknown) => void, reject }),
    );
  }

  private async runPending(batch: Pending): Promise<void> {
    if (this.pending === batch) this.pending = null;
    const { kind, items, settle } = batch;
    try {
      const results = await this.unit((tx) => kind.apply(tx, items), true);
      results.forEach((r, i) => settle[i]!.resolve(r));
      return;
    } catch (error) {
      if (items.length === 1 || this.group === null) {
        for (const s of settle) s.reject(error);
        return;
      }
    }
    // The shared statement failed and was rolled back: each write alone, so only the faulty one fails.
    for (const [i, item] of items.entries()) {
      await this.unit((tx) => kind.apply(tx, [item]), true).then((r) => settle[i]!.resolve(r[0]), settle[i]!.reject);
    }
  }

  private async alone<T>(fn: (tx: WriteTx) => Promise<T>): Promise<T> {
    const tx = await this.open();
    try {
      const result = await fn(tx);
      await this.close(tx, true);
      return result;
    } catch (error) {
      await this.close(tx, false);
      throw toKbctxError(this.url, error);
    }
  }

  /**
   * One unit in the bulk group (opened on demand, with its savepoint taken). The savepoint is renewed
   * lazily: before a unit that cannot be replayed, or once REPLAY_MAX replayable ones (document batches)
   * stand since it. When a unit fails, rolling back to the savepoint undoes those too: they are applied
   * again (the same statements on the same rows give the same result), so only the failed unit is undone.
   */
  private async unit<T>(fn: (tx: WriteTx) => Promise<T>, replayable = false): Promise<T> {
    const group = (this.group ??= await this.openGroup());
    if (group.opaque || (group.replays.length > 0 && (!replayable || group.replays.length >= REPLAY_MAX)))
      await this.renew(group);
    let result: T;
    try {
      result = await fn(group);
    } catch (error) {
      await this.undo(group, error);
      throw toKbctxError(this.url, error);
    }
    if (replayable) group.replays.push(fn);
    else group.opaque = true;
    group.units++;
    if (group.units >= GROUP_MAX_UNITS || performance.now() - group.openedAt >= GROUP_MAX_MS) await this.commitGroup();
    else
      group.timer ??= setTimeout(() => void this.serial(() => this.commitGroup()).catch(() => undefined), GROUP_MAX_MS);
    return result;
  }

  private async renew(group: Group): Promise<void> {
    try {
      await group.client.query(RENEW);
    } catch (error) {
      await this.abandonGroup(error);
      throw toKbctxError(this.url, error);
    }
    group.replays = [];
    group.opaque = false;
  }

  /** Undoes the failed unit only; a group that cannot be brought back is abandoned (throws why). */
  private async undo(group: Group, error: unknown): Promise<void> {
    if (this.group !== group) return;
    if (isUnreachable(error)) return this.abandonGroup(error);
    try {
      await group.client.query('ROLLBACK TO SAVEPOINT kbctx_unit');
      for (const replay of group.replays) await replay(group);
    } catch (lost) {
      await this.abandonGroup(lost);
      throw toKbctxError(this.url, lost);
    }
  }

  private async openGroup(): Promise<Group> {
    return {
      ...(await this.open(true)),
      units: 0,
      openedAt: performance.now(),
      timer: null,
      replays: [],
      opaque: false,
    };
  }

  /** Enters bulk mode (nestable). */
  begin(): void {
    this.bulk++;
  }

  /** Leaves bulk mode; the outermost end commits the open group. */
  async end(): Promise<void> {
    if (this.bulk > 0) this.bulk--;
    if (this.bulk > 0) return;
    const failed = await this.serial(() => this.commitGroup()).then(
      () => null,
      (error: unknown) => error,
    );
    // The bulk run is over whatever happened: the next one starts clean (a failed final commit used to
    // leave `lost` set, failing the next sync too, e.g. the first one after PostgreSQL came back).
    const lost = this.lost;
    this.lost = null;
    if (lost !== null) throw this.lostError(lost);
    if (failed !== null) throw toKbctxError(this.url, failed);
  }

  private lostError(lost: unknown = this.lost): Error {
    const cause = toKbctxError(this.url, lost);
    return new KbctxError(
      cause.code,
      `earlier writes of this bulk run were not committed (${cause.message}); they are written again by the next sync`,
      { cause },
    );
  }

  get inBulk(): boolean {
    return this.bulk > 0;
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    this.pending = null; // writes queued after this one must not join an earlier batch
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** A write transaction; `savepoint`: with kbctx_unit taken (a bulk group). */
  private async open(savepoint = false): Promise<WriteTx> {
    const client = await connect(this.pool, this.url);
    try {
      const results = (await client.query(openSql(randomUUID(), savepoint))) as unknown as pg.QueryResult<{
        version?: string;
      }>[];
      const version = results.map((r) => r.rows[0]?.version).find((v) => v !== undefined);
      if (version === undefined) throw new Error('kbctx_meta has no row');
      return { client, version };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release(isUnreachable(error) ? (error as Error) : undefined);
      throw toKbctxError(this.url, error);
    }
  }

  private async close(tx: WriteTx, commit: boolean): Promise<void> {
    try {
      await tx.client.query(commit ? 'COMMIT' : 'ROLLBACK');
      tx.client.release();
    } catch (error) {
      tx.client.release(error as Error);
      if (commit) throw toKbctxError(this.url, error);
    }
  }

  private async commitGroup(): Promise<void> {
    const group = this.group;
    if (!group) return;
    this.group = null;
    if (group.timer) clearTimeout(group.timer);
    try {
      await this.close(group, true);
    } catch (error) {
      if (group.units > 0) this.lost ??= error;
      throw error;
    }
  }

  private async abandonGroup(error: unknown): Promise<void> {
    const group = this.group;
    if (!group) return;
    this.group = null;
    if (group.timer) clearTimeout(group.timer);
    if (group.units > 0) this.lost ??= error;
    await group.client.query('ROLLBACK').catch(() => undefined);
    group.client.release(error as Error);
  }

  /** Commits what is pending (close). */
  async flush(): Promise<void> {
    await this.serial(() => this.commitGroup());
  }
}
