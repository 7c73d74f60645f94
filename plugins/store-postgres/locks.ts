// Connector locks across replicas: a session advisory lock pg_try_advisory_lock(LOCK_CLASS,
// hashtext(label)) held on a dedicated pooled connection until released. The connection's
// application_name carries host, pid and owner, so a conflict names the holder (pg_stat_activity).
// A holder whose connection dies (crash, PostgreSQL restart) loses the lock: the server frees it.
import { KbctxError, waitForLock, type ConnectorLocks, type ReleaseLock } from '../../core/api/plugin.ts';
import type pg from 'pg';
import { LOCK_CLASS } from './keys.ts';
import { APPLICATION_NAME, connect, toKbctxError } from './pool.ts';

export function postgresLocks(pool: pg.Pool, url: string): ConnectorLocks {
  const acquire = async (label: string, owner: string): Promise<ReleaseLock> => {
    const client = await connect(pool, url);
    try {
      await client.query('SELECT set_config($1, $2, false)', [
        'application_name',
        `${APPLICATION_NAME}: ${owner}`.slice(0, 63),
      ]);
      const taken = (
        await client.query<{ taken: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS taken', [
          LOCK_CLASS,
          label,
        ])
      ).rows[0]!.taken;
      if (!taken) {
        const holder = await holderOf(client, label);
        await client.query('SELECT set_config($1, $2, false)', ['application_name', APPLICATION_NAME]);
        client.release();
        throw new KbctxError(
          'conflict',
          `${label} is being synced by ${holder ?? 'another kbctx process'}; wait for it to finish (GET ` +
            `/sync/status on the server shows progress) and run the command again`,
        );
      }
    } catch (error) {
      if (error instanceof KbctxError && error.code === 'conflict') throw error;
      client.release(error as Error);
      throw toKbctxError(url, error);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // Unlocking resets the connection before it goes back to the pool; a dead one is discarded (the lock died with
      // it).
      void client
        .query('SELECT pg_advisory_unlock($1, hashtext($2)), set_config($3, $4, false)', [
          LOCK_CLASS,
          label,
          'application_name',
          APPLICATION_NAME,
        ])
        .then(
          () => client.release(),
          (error: unknown) => client.release(error as Error),
        );
    };
  };

  return {
    acquire,
    wait: (label, owner, options) => waitForLock(() => acquire(label, owner), options),
  };
}

/** `kbctx <host> <pid>: <owner> (since …)` of the session holding the lock, when visible. */
async function holderOf(client: pg.PoolClient, label: string): Promise<string | null> {
  const row = (
    await client.query<{ name: string; since: string }>(
      `SELECT a.application_name AS name, to_char(a.state_change AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
        AS since
     FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
     WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 AND l.classid = $1::bigint::oid
       AND l.objid = (hashtext($2)::bigint & 4294967295)::oid AND l.database = (SELECT oid FROM pg_database
         WHERE datname = current_database())
     LIMIT 1`,
      [LOCK_CLASS, label],
    )
  ).rows[0];
  return row ? `${row.name || 'another session'} (since ${row.since})` : null;
}
