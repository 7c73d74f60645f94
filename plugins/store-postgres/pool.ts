// The connection pool to PostgreSQL and the translation of driver errors at this edge: a server that
// cannot be reached becomes KbctxError `unavailable` (HTTP 503); anything else `internal`.
import { KbctxError } from '../../core/api/plugin.ts';
import { hostname } from 'node:os';
import pg from 'pg';

export interface PoolOptions {
  /** Connections at most (default 10). */
  poolSize?: number | undefined;
}

const CONNECT_TIMEOUT_MS = 5_000;
const IDLE_TIMEOUT_MS = 30_000;
const STATEMENT_TIMEOUT_MS = 60_000;

/** `kbctx <host> <pid>`: what pg_stat_activity shows for this process (lock conflicts name it). */
export const APPLICATION_NAME = `kbctx ${hostname()} ${process.pid}`.slice(0, 63);

/** `host:port` of the URL, for messages. */
export function serverOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}`;
  } catch {
    return 'the configured server';
  }
}

export function clientConfig(url: string): pg.ClientConfig {
  return {
    connectionString: url,
    application_name: APPLICATION_NAME,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    query_timeout: STATEMENT_TIMEOUT_MS + 5_000,
    keepAlive: true,
  };
}

export function createPool(url: string, options: PoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({ ...clientConfig(url), max: options.poolSize ?? 10, idleTimeoutMillis: IDLE_TIMEOUT_MS });
  // An idle client whose server went away emits here; without a listener the process would crash.
  pool.on('error', () => undefined);
  return pool;
}

// SQLSTATE classes 08 (connection exception) and 57P0x (operator intervention: shutdown, starting up).
const UNREACHABLE_STATES = /^(08|57P0[1-4]|53300)/;
const UNREACHABLE_MESSAGES = new RegExp(
  [
    'ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EPIPE|Connection terminated',
    'timeout exceeded when trying to connect',
    'Client has encountered a connection error',
    'not queryable|Query read timeout',
  ].join('|'),
  'i',
);

export function isUnreachable(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (!e) return false;
  if (typeof e.code === 'string' && UNREACHABLE_STATES.test(e.code)) return true;
  if (typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code) && UNREACHABLE_MESSAGES.test(e.code)) return true;
  return typeof e.message === 'string' && UNREACHABLE_MESSAGES.test(e.message);
}

export function unavailable(url: string, detail: string, cause?: unknown): KbctxError {
  return new KbctxError(
    'unavailable',
    `PostgreSQL at ${serverOf(url)} is unreachable: ${detail}`,
    cause === undefined ? undefined : { cause },
  );
}

/** A driver error as a KbctxError (KbctxErrors pass through). */
export function toKbctxError(url: string, error: unknown): KbctxError {
  if (error instanceof KbctxError) return error;
  const message = (error as Error | null)?.message ?? String(error);
  if (isUnreachable(error)) return unavailable(url, message, error);
  return new KbctxError('internal', `PostgreSQL at ${serverOf(url)}: ${message}`, { cause: error });
}

const guarded = new WeakSet<pg.PoolClient>();

/**
 * A pooled connection; failing to get one is `unavailable` (or `internal`). The pool listens for errors
 * only on idle clients: a checked-out one (a held lock, an open bulk group) whose server goes away
 * would crash the process without the listener added here. Its next query fails instead.
 */
export async function connect(pool: pg.Pool, url: string): Promise<pg.PoolClient> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw toKbctxError(url, error);
  }
  if (!guarded.has(client)) {
    guarded.add(client);
    client.on('error', () => undefined);
  }
  return client;
}
