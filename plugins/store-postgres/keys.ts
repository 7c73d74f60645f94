// Advisory lock keys of kbctx in PostgreSQL. Single bigint keys and (int, int) pairs are separate key
// spaces in pg_locks, so the write and migrate keys never collide with connector locks.

/** 'kbcx' in ASCII: the class of connector locks, `pg_try_advisory_lock(LOCK_CLASS, hashtext(label))`. */
export const LOCK_CLASS = 0x6b626378;
/** Held by every write transaction (pg_advisory_xact_lock): version order is commit order. */
export const WRITE_LOCK_KEY = '7737856476823158785'; // 0x6b62637800000001
/** Held while migrations run (session lock). */
export const MIGRATE_LOCK_KEY = '7737856476823158786'; // 0x6b62637800000002
/** Notification channel: payload is the committed version. */
export const CHANNEL = 'kbctx_changes';
