// Advisory lock keys of Lore in PostgreSQL. Single bigint keys and (int, int) pairs are separate key
// spaces in pg_locks, so the write and migrate keys never collide with connector locks.

/** 'Lore' in ASCII: the class of connector locks, `pg_try_advisory_lock(LOCK_CLASS, hashtext(label))`. */
export const LOCK_CLASS = 0x4c6f7265;
/** Held by every write transaction (pg_advisory_xact_lock): version order is commit order. */
export const WRITE_LOCK_KEY = '5507746647414669313'; // 0x4c6f726500000001
/** Held while migrations run (session lock). */
export const MIGRATE_LOCK_KEY = '5507746647414669314'; // 0x4c6f726500000002
/** Notification channel: payload is the committed version. */
export const CHANNEL = 'lore_changes';
