// Transactions for the SQLite store.
//
// Every document write is one atomic unit. Outside bulk mode a unit is its own BEGIN IMMEDIATE …
// COMMIT. In bulk mode (during sync) units are SAVEPOINTs inside a group transaction committed every
// GROUP_MAX_UNITS units or GROUP_MAX_MS: FTS5 writes an index segment per commit, so committing each
// document alone costs ~5x more. A unit that fails rolls back alone; a kill rolls back the open group,
// and in every case each document is wholly old or wholly new (docs/adr/0003-group-commit.md).
import type { DatabaseSync } from 'node:sqlite';
import { writeFailure } from './write-failure.ts';

const GROUP_MAX_UNITS = 500;
const GROUP_MAX_MS = 250;

function inTransaction<T>(db: DatabaseSync, file: string, fn: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = fn();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw writeFailure(error, file);
  }
}

export class UnitOfWork {
  private readonly db: DatabaseSync;
  /** The database file, for messages. */
  private readonly file: string;
  private bulk = 0;
  /** Units run on this connection: with PRAGMA data_version (other connections) it tells when the index changed. */
  writes = 0;
  private units = 0;
  private openedAt = 0;

  constructor(db: DatabaseSync, file: string) {
    this.db = db;
    this.file = file;
  }

  /** Runs `fn` atomically: its own transaction, or a savepoint in the current group. */
  run<T>(fn: () => T): T {
    this.writes++;
    if (this.bulk === 0) return inTransaction(this.db, this.file, fn);
    if (!this.db.isTransaction) {
      this.db.exec('BEGIN IMMEDIATE');
      this.units = 0;
      this.openedAt = performance.now();
    }
    this.db.exec('SAVEPOINT kbctx_unit');
    try {
      const result = fn();
      this.db.exec('RELEASE kbctx_unit');
      this.units++;
      if (this.units >= GROUP_MAX_UNITS || performance.now() - this.openedAt >= GROUP_MAX_MS) this.commit();
      return result;
    } catch (error) {
      // SQLITE_FULL (a full disk) and a few other errors roll the whole group back: the savepoint is gone.
      if (this.db.isTransaction) {
        this.db.exec('ROLLBACK TO kbctx_unit');
        this.db.exec('RELEASE kbctx_unit');
      }
      throw writeFailure(error, this.file);
    }
  }

  /**
   * Runs `fn` in its own transaction, committed when this returns, even in bulk mode (the open group
   * is committed first): for state other processes must see at once (embedding leases). Not counted
   * in `writes`: it does not change what searches see.
   */
  runCommitted<T>(fn: () => T): T {
    this.commit();
    return inTransaction(this.db, this.file, fn);
  }

  /** Enters bulk mode (nestable). */
  begin(): void {
    this.bulk++;
  }

  /** Leaves bulk mode; the outermost end commits what is pending. */
  end(): void {
    if (this.bulk > 0) this.bulk--;
    if (this.bulk === 0) this.commit();
  }

  /** Commits the open group now, if any (also called when a group has been open too long). */
  commit(): void {
    if (!this.db.isTransaction) return;
    try {
      this.db.exec('COMMIT');
    } catch (error) {
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      throw writeFailure(error, this.file);
    }
  }
}
