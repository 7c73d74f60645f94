// Write transactions for the PostgreSQL store, and the change feed's write side.
//
// Every write transaction, before it changes anything: takes pg_advisory_xact_lock(WRITE_LOCK_KEY) (one
// writer at a time across replicas, so version order is commit order and a reader's watermark never
// skips a late commit), draws one value of lore_version and records it as lore_meta.version (the
// committed high-water mark the heartbeat reads) and in lore_commits with a random token (the history
// mirrors check), and queues pg_notify (delivered at commit).
// Writes of this store are serialised (one connection at a time). In bulk mode units are SAVEPOINTs in
// a group committed every GROUP_MAX_UNITS units or GROUP_MAX_MS, like the SQLite store's unit of work.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { CHANNEL, WRITE_LOCK_KEY } from './keys.ts';
import { connect, isUnreachable, toLoreError } from './pool.ts';

const GROUP_MAX_UNITS = 500;
const GROUP_MAX_MS = 250;

export interface WriteTx {
  client: pg.PoolClient;
  /** The version stamped on every row this transaction changes (a bigint as text). */
  version: string;
}

interface Group extends WriteTx {
  units: number;
  openedAt: number;
  timer: NodeJS.Timeout | null;
}

export class PgTransactions {
  private readonly pool: pg.Pool;
  private readonly url: string;
  private queue: Promise<unknown> = Promise.resolve();
  private bulk = 0;
  private group: Group | null = null;

  constructor(pool: pg.Pool, url: string) {
    this.pool = pool;
    this.url = url;
  }

  /** Runs `fn` atomically: its own transaction, or a savepoint in the open bulk group. */
  run<T>(fn: (tx: WriteTx) => Promise<T>): Promise<T> {
    return this.serial(async () => {
      if (this.bulk === 0) {
        const tx = await this.open();
        try {
          const result = await fn(tx);
          await this.close(tx, true);
          return result;
        } catch (error) {
          await this.close(tx, false);
          throw toLoreError(this.url, error);
        }
      }
      const group = (this.group ??= { ...(await this.open()), units: 0, openedAt: performance.now(), timer: null });
      try {
        await group.client.query('SAVEPOINT lore_unit');
        const result = await fn(group);
        await group.client.query('RELEASE SAVEPOINT lore_unit');
        group.units++;
        if (group.units >= GROUP_MAX_UNITS || performance.now() - group.openedAt >= GROUP_MAX_MS) await this.commitGroup();
        else group.timer ??= setTimeout(() => void this.serial(() => this.commitGroup()).catch(() => undefined), GROUP_MAX_MS);
        return result;
      } catch (error) {
        if (isUnreachable(error)) {
          await this.abandonGroup(error);
        } else {
          await group.client.query('ROLLBACK TO SAVEPOINT lore_unit; RELEASE SAVEPOINT lore_unit').catch(() => this.abandonGroup(error));
        }
        throw toLoreError(this.url, error);
      }
    });
  }

  /** Enters bulk mode (nestable). */
  begin(): void {
    this.bulk++;
  }

  /** Leaves bulk mode; the outermost end commits the open group. */
  async end(): Promise<void> {
    if (this.bulk > 0) this.bulk--;
    if (this.bulk === 0) await this.serial(() => this.commitGroup());
  }

  get inBulk(): boolean {
    return this.bulk > 0;
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async open(): Promise<WriteTx> {
    const client = await connect(this.pool, this.url);
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [WRITE_LOCK_KEY]);
      const row = (await client.query<{ version: string }>(
        `WITH v AS (UPDATE lore_meta SET version = nextval('lore_version') WHERE id = 1 RETURNING version)
         INSERT INTO lore_commits (version, token) SELECT version, $1 FROM v RETURNING version::text AS version`,
        [randomUUID()],
      )).rows[0]!;
      await client.query('SELECT pg_notify($1, $2)', [CHANNEL, row.version]);
      return { client, version: row.version };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release(isUnreachable(error) ? (error as Error) : undefined);
      throw toLoreError(this.url, error);
    }
  }

  private async close(tx: WriteTx, commit: boolean): Promise<void> {
    try {
      await tx.client.query(commit ? 'COMMIT' : 'ROLLBACK');
      tx.client.release();
    } catch (error) {
      tx.client.release(error as Error);
      if (commit) throw toLoreError(this.url, error);
    }
  }

  private async commitGroup(): Promise<void> {
    const group = this.group;
    if (!group) return;
    this.group = null;
    if (group.timer) clearTimeout(group.timer);
    await this.close(group, true);
  }

  private async abandonGroup(error: unknown): Promise<void> {
    const group = this.group;
    if (!group) return;
    this.group = null;
    if (group.timer) clearTimeout(group.timer);
    await group.client.query('ROLLBACK').catch(() => undefined);
    group.client.release(error as Error);
  }

  /** Commits what is pending (close). */
  async flush(): Promise<void> {
    await this.serial(() => this.commitGroup());
  }
}
